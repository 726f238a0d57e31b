import { Migration } from '@mikro-orm/migrations';

/**
 * GPG keys: GitLab's gpg_keys, removed with their user. Indexes: a user's keys (the lists
 * and lookups by user and id) and, unique as GitLab's, the fingerprint and the primary key id (the
 * duplicate checks, and the last word when two adds race).
 */
export class Migration20261204110000GpgKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table gpg_keys (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        key text not null,
        fingerprint varchar(40) not null,
        primary_keyid varchar(16) not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql('create index gpg_keys_user_id_idx on gpg_keys (user_id);');
    this.addSql('create unique index gpg_keys_fingerprint_uniq on gpg_keys (fingerprint);');
    this.addSql('create unique index gpg_keys_primary_keyid_uniq on gpg_keys (primary_keyid);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table gpg_keys;');
  }
}
