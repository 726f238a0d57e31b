import { Migration } from '@mikro-orm/migrations';

/**
 * SSH keys of users (GitLab 10.3's `keys`, `/users/:id/keys`, `/user/keys`, `/keys/:id`).
 * Every list is one user's keys by id: (user_id, id) is its index. The fingerprint is unique on the
 * instance (GitLab's `validates :fingerprint, uniqueness: true`); the unique index also settles two
 * concurrent adds of one key. A user's keys go with the user.
 */
export class Migration20261204120000Keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table keys (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        title varchar(255) not null,
        key text not null,
        fingerprint varchar(128) not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql('create unique index keys_fingerprint_uniq on keys (fingerprint);');
    this.addSql('create index keys_user_id_id_idx on keys (user_id, id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table keys;');
  }
}
