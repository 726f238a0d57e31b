import { Migration } from '@mikro-orm/migrations';

/**
 * Pipelines, the commits they build, and jobs (spec 2.2). The runner job list (spec 4.6) filters on
 * runner and status and orders by id: `(runner_id, id)` and `(runner_id, status, id)` serve it as
 * index range scans. The other indexes back the foreign keys (cascades on project/user deletion).
 */
export class Migration20261122130100CiJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ci_commits (
        id serial primary key,
        project_id integer not null references projects (id) on delete cascade,
        sha varchar(40) not null,
        title varchar(255) not null default '',
        message text not null default '',
        author_name varchar(255) not null default '',
        author_email varchar(255) not null default '',
        authored_date timestamptz(3) not null,
        committer_name varchar(255) not null default '',
        committer_email varchar(255) not null default '',
        committed_date timestamptz(3) not null,
        parent_ids text[] not null default '{}'
      );`);
    this.addSql(`create unique index ci_commits_project_sha_uniq on ci_commits (project_id, sha);`);
    this.addSql(`
      create table ci_pipelines (
        id serial primary key,
        project_id integer not null references projects (id) on delete cascade,
        sha varchar(40) not null,
        ref varchar(255) not null,
        status varchar(16) not null,
        user_id integer null references users (id) on delete set null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create index ci_pipelines_project_idx on ci_pipelines (project_id, id);`);
    this.addSql(`create index ci_pipelines_user_idx on ci_pipelines (user_id);`);
    this.addSql(`
      create table ci_builds (
        id serial primary key,
        project_id integer not null references projects (id) on delete cascade,
        pipeline_id integer not null references ci_pipelines (id) on delete cascade,
        runner_id integer null references ci_runners (id) on delete set null,
        user_id integer null references users (id) on delete set null,
        status varchar(16) not null,
        stage varchar(255) not null default 'test',
        name varchar(255) not null,
        ref varchar(255) not null,
        tag boolean not null default false,
        coverage double precision null,
        created_at timestamptz(3) not null default now(),
        started_at timestamptz(3) null,
        finished_at timestamptz(3) null,
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql(`create index ci_builds_runner_idx on ci_builds (runner_id, id);`);
    this.addSql(`create index ci_builds_runner_status_idx on ci_builds (runner_id, status, id);`);
    this.addSql(`create index ci_builds_project_idx on ci_builds (project_id);`);
    this.addSql(`create index ci_builds_pipeline_idx on ci_builds (pipeline_id);`);
    this.addSql(`create index ci_builds_user_idx on ci_builds (user_id);`);
  }
}
