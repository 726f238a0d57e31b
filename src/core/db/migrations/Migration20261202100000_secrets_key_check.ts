import { Migration } from '@mikro-orm/migrations';

/**
 * The secrets key check (core/crypto/key-check.ts): one row, the HMAC of a fixed label under the key
 * this database's values are sealed with. Every instance compares it with its own key at start.
 */
export class Migration20261202100000SecretsKeyCheck extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table secrets_key_check (
        id integer primary key check (id = 1),
        key_check char(64) not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table secrets_key_check;');
  }
}
