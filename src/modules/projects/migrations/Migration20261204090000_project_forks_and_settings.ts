import { Migration } from '@mikro-orm/migrations';

/**
 * Forks without repositories and the GitLab 10.3 project settings that need no repository or CI.
 * A fork is the column `forked_from_project_id` (GitLab 10.3's forked_project_links
 * row, one per fork): deleting the source unlinks its forks (set null), deleting a fork its link. The
 * partial index serves `GET /projects/:id/forks` in its default order (created_at, id) and the
 * foreign key's lookup when a source is deleted; projects that are no fork (nearly all) stay out of it.
 * `lfs_enabled` null means "the namespace's setting" (GitLab's Project#lfs_enabled?).
 */
export class Migration20261204090000ProjectForksAndSettings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table projects
        add column forked_from_project_id integer null references projects (id) on delete set null,
        add column lfs_enabled boolean null,
        add column resolve_outdated_diff_discussions boolean not null default false,
        add column only_allow_merge_if_pipeline_succeeds boolean not null default false,
        add column only_allow_merge_if_all_discussions_are_resolved boolean not null default false,
        add column printing_merge_request_link_enabled boolean not null default true,
        add column ci_config_path varchar(255) null;`);
    this.addSql(
      `create index projects_forked_from_idx on projects (forked_from_project_id, created_at, id) where forked_from_project_id is not null;`,
    );
  }
}
