import { Migration } from '@mikro-orm/migrations';

/**
 * Feature flags (spec 2.9, 4.35–4.36): one row per persisted feature with all its gate values
 * (Flipper's gates), so a write is one row lock and a read is one table scan. The unique index on
 * name serves every lookup; GET /features lists in storage order (the primary key).
 */
export class Migration20261122110100Features extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table features (
        id serial primary key,
        name varchar(255) not null,
        boolean_value boolean not null default false,
        actors text[] not null default '{}',
        groups text[] not null default '{}',
        percentage_of_actors integer not null default 0 check (percentage_of_actors between 0 and 100),
        percentage_of_time integer not null default 0 check (percentage_of_time between 0 and 100),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        constraint features_name_uniq unique (name)
      );
    `);
  }
}
