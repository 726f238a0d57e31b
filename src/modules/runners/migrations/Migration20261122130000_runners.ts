import { Migration } from '@mikro-orm/migrations';

/**
 * Runners (spec 2.1, 4.1-4.9) and their project links, plus the projects' runners_token stored the
 * way runner tokens are: sealed (AES-GCM, key from configuration) with an HMAC digest for lookups.
 * Tokens that were stored in clear text before are dropped; a project gets a fresh one on first read
 * by a Master (GitLab's `ensure_runners_token!`) or at creation. Indexes: one per list filter and
 * ORDER BY (docs/rest.md#runners).
 */
export class Migration20261122130000Runners extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ci_runners (
        id serial primary key,
        token text not null,
        token_digest varchar(64) not null,
        description varchar(255) not null default '',
        name varchar(255) null,
        version varchar(255) null,
        revision varchar(255) null,
        platform varchar(255) null,
        architecture varchar(255) null,
        active boolean not null default true,
        is_shared boolean not null default false,
        locked boolean not null default false,
        run_untagged boolean not null default true,
        access_level smallint not null default 0,
        tag_list text[] not null default '{}',
        contacted_at timestamptz(3) null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create unique index ci_runners_token_digest_uniq on ci_runners (token_digest);`);
    this.addSql(`create index ci_runners_shared_idx on ci_runners (is_shared, id);`);
    this.addSql(`create index ci_runners_active_idx on ci_runners (active, id);`);
    this.addSql(`create index ci_runners_contacted_idx on ci_runners (contacted_at);`);
    this.addSql(`
      create table ci_runner_projects (
        id serial primary key,
        runner_id integer not null references ci_runners (id) on delete cascade,
        project_id integer not null references projects (id) on delete cascade,
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(
      `create unique index ci_runner_projects_runner_project_uniq on ci_runner_projects (runner_id, project_id);`,
    );
    this.addSql(`create index ci_runner_projects_project_idx on ci_runner_projects (project_id, runner_id);`);
    this.addSql(`alter table projects alter column runners_token type text, alter column runners_token drop not null;`);
    this.addSql(`update projects set runners_token = null;`);
    this.addSql(`alter table projects add column runners_token_digest varchar(64) null;`);
    this.addSql(`create unique index projects_runners_token_digest_uniq on projects (runners_token_digest);`);
  }
}
