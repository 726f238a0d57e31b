import { Migration } from '@mikro-orm/migrations';

/**
 * Group avatars (`avatar` on POST/PUT /groups, GET /groups/:id/avatar): an avatar row may belong to a
 * group. Unlike users and projects, the group's row does not keep the file name: a new column on
 * namespaces takes an exclusive lock on that hot table while the previous release deletes groups
 * (a deadlock in the side-by-side upgrade), so group lists read the names from here in one batch. The one-owner check
 * (exactly one of user_id, project_id) would refuse a group's row, so it goes; saveAvatar writes exactly
 * one owner column. A check over the three columns is a new constraint: it waits for a later release
 * (docs/adding-a-resource.md, "Expand only"). Expand-only (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261212090100GroupAvatars extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table avatars add column group_id integer null unique references namespaces (id) on delete cascade',
    );
    this.addSql('alter table avatars drop constraint avatars_check');
  }
}
