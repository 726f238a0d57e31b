import { Migration } from '@mikro-orm/migrations';

/**
 * GitLab's later group orders (`adminGroups(sort: "created_at_desc" | "updated_at_desc" …)`, the
 * Admin area's default being updated_at_desc, and `sharedGroups(sort:)`): each (column, id) of groups
 * gets an index, so a connection page reads its rows from the cursor on, as for name and path.
 * Expand-only: two new partial indexes.
 */
export class Migration20261215090100GroupListOrderIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index namespaces_group_created_idx on namespaces (created_at, id) where kind = 'group'`);
    this.addSql(`create index namespaces_group_updated_idx on namespaces (updated_at, id) where kind = 'group'`);
  }
}
