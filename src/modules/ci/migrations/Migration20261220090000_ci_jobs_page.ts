import { Migration } from '@mikro-orm/migrations';

/**
 * GitLab's project Jobs page (`Project.jobs(statuses, sources, name)`, docs/graphql.md#a-projects-jobs-page):
 * GitLab 10.3's columns `ci_builds.allow_failure`, `ci_builds.when`, `ci_builds.retried` and
 * `ci_pipelines.source` (an integer: push 1, web 2, trigger 3, schedule 4, api 5, external 6, …; null
 * is GitLab's `unknown`), as the CI system writes them. Expand only: new columns with defaults (existing
 * jobs are neither allowed to fail nor manual nor retried; existing pipelines are of unknown source),
 * which the previous release ignores.
 *
 * Indexes of the two new filters: `(project_id, name, id)` gives the distinct job names of a project by a
 * skip scan and each name's jobs newest first (the name filter matches names, then reads their jobs);
 * `(project_id, source, id)` gives a project's pipelines of some sources (the sources filter).
 */
export class Migration20261220090000CiJobsPage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table ci_builds add column if not exists allow_failure boolean not null default false;`);
    this.addSql(`alter table ci_builds add column if not exists "when" varchar(255) null default 'on_success';`);
    this.addSql(`alter table ci_builds add column if not exists retried boolean null default false;`);
    this.addSql(`alter table ci_pipelines add column if not exists source integer null;`);
    this.addSql(`create index if not exists ci_builds_project_name_idx on ci_builds (project_id, name, id);`);
    this.addSql(`create index if not exists ci_pipelines_project_source_idx on ci_pipelines (project_id, source, id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists ci_pipelines_project_source_idx;');
    this.addSql('drop index if exists ci_builds_project_name_idx;');
    this.addSql('alter table ci_pipelines drop column if exists source;');
    this.addSql('alter table ci_builds drop column if exists retried;');
    this.addSql('alter table ci_builds drop column if exists "when";');
    this.addSql('alter table ci_builds drop column if exists allow_failure;');
  }
}
