import { Migration } from '@mikro-orm/migrations';

/**
 * Custom attributes of users and projects, as the groups' (initial migration): one row per
 * owner and key, removed with their owner. Indexes: the key lookup (unique, also the list by key) and
 * the `custom_attributes[key]=value` list filter.
 */
export class Migration20261203100000CustomAttributes extends Migration {
  override async up(): Promise<void> {
    for (const [table, column, owner] of [
      ['user_custom_attributes', 'user_id', 'users'],
      ['project_custom_attributes', 'project_id', 'projects'],
    ]) {
      this.addSql(`
        create table ${table} (
          id serial primary key,
          ${column} integer not null references ${owner} (id) on delete cascade,
          key varchar(255) not null,
          value varchar(255) not null,
          created_at timestamptz(3) not null default now(),
          updated_at timestamptz(3) not null default now()
        );`);
      this.addSql(`create unique index ${table}_uniq on ${table} (${column}, key);`);
      this.addSql(`create index ${table}_kv_idx on ${table} (key, value);`);
    }
  }

  override async down(): Promise<void> {
    this.addSql('drop table project_custom_attributes;');
    this.addSql('drop table user_custom_attributes;');
  }
}
