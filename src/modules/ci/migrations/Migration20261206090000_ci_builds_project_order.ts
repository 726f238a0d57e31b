import { Migration } from '@mikro-orm/migrations';

/**
 * `Project.jobs` (docs/graphql.md#memberships-and-links): a project's jobs by id, and by status then
 * id, as index range scans — the (project_id) index made every page sort all of a project's jobs. The
 * new index leads with project_id, so it also backs the foreign key the old one did.
 */
export class Migration20261206090000CiBuildsProjectOrder extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index ci_builds_project_id_idx on ci_builds (project_id, id);');
    this.addSql('create index ci_builds_project_status_idx on ci_builds (project_id, status, id);');
    this.addSql('drop index if exists ci_builds_project_idx;');
  }

  override async down(): Promise<void> {
    this.addSql('create index ci_builds_project_idx on ci_builds (project_id);');
    this.addSql('drop index if exists ci_builds_project_status_idx;');
    this.addSql('drop index if exists ci_builds_project_id_idx;');
  }
}
