import { Migration } from '@mikro-orm/migrations';

/**
 * Groups shared with groups (GitLab's group_group_links, POST /groups/:id/share): the shared group,
 * the invited group, the access level granted and an optional expiry day. One share per pair; a
 * group's removal takes its shares both ways. `shared_with_group_id` is indexed for the invited
 * group's side (its removal, transfer locations). Expand-only: a new table
 * (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261212090000GroupGroupLinks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table group_group_links (
      id serial primary key,
      shared_group_id integer not null references namespaces (id) on delete cascade,
      shared_with_group_id integer not null references namespaces (id) on delete cascade,
      group_access smallint not null,
      expires_at date null,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    );`);
    this.addSql(
      'create unique index group_group_links_shared_pair on group_group_links (shared_group_id, shared_with_group_id);',
    );
    this.addSql('create index group_group_links_shared_with on group_group_links (shared_with_group_id);');
  }
}
