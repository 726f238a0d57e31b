import { Migration } from '@mikro-orm/migrations';

/**
 * GitLab's user_preferences.projects_sort: the sort the projects lists remember (`name_asc`, …), null until
 * set. Expand-only: a nullable column (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261229090000UserPreferencesProjectsSort extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table user_preferences add column projects_sort varchar(64) null;');
  }
}
