import { Migration } from '@mikro-orm/migrations';

/**
 * Broadcast messages (spec 2.6, 4.19–4.23). The only list orders by id descending and has no
 * filter, so the primary key is its index. starts_at/ends_at are unindexed: `active` is computed
 * per row at response time, never filtered on.
 */
export class Migration20261122110000BroadcastMessages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table broadcast_messages (
        id serial primary key,
        message text not null,
        starts_at timestamptz(3) not null,
        ends_at timestamptz(3) not null,
        color text not null default '',
        font text not null default '',
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
    `);
  }
}
