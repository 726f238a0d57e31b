import { Migration } from '@mikro-orm/migrations';

/**
 * The bulk clean-up routes' filters and orders (modules/environments/environment-cleanup.ts): a
 * project's available environments by last update (stop_stale), its stopped ones by creation
 * (review_apps, oldest first). Expand-only: two new indexes.
 */
export class Migration20261212100100EnvironmentsCleanupIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "create index environments_available_updated_idx on environments (project_id, updated_at) where state = 'available'",
    );
    this.addSql(
      "create index environments_stopped_created_idx on environments (project_id, created_at, id) where state = 'stopped'",
    );
  }
}
