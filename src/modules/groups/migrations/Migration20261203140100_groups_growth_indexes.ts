import { Migration } from '@mikro-orm/migrations';

/**
 * Group lists at a million groups (docs/growth.md): the anonymous list (public groups by
 * name, the default order) gets a partial index, so its first page and its bounded count read public
 * groups only however rare they are among private ones.
 */
export class Migration20261203140100GroupsGrowthIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index namespaces_public_group_name_idx on namespaces (name, id) where kind = 'group' and visibility_level = 20;`,
    );
  }
}
