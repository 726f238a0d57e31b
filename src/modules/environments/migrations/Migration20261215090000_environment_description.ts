import { Migration } from '@mikro-orm/migrations';

/**
 * GitLab's environment description (GraphQL's `environmentCreate`/`environmentUpdate` and
 * `Environment.description`). Expand-only: one nullable column, no default to backfill.
 */
export class Migration20261215090000EnvironmentDescription extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table environments add column description text null');
  }
}
