import { Migration } from '@mikro-orm/migrations';

/**
 * Secondary e-mail addresses of users (GitLab 10.3's `emails`, `/users/:id/emails`,
 * `/user/emails`). Every list is one user's addresses by id: (user_id, id) is its index. An address
 * is unique on the instance (GitLab's `validates :email, uniqueness: true`; stored lower-cased, the
 * unique index is on lower(email) so that it also serves the check against users' primary e-mails).
 */
export class Migration20261204120100Emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table emails (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        email varchar(255) not null,
        confirmed_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );`);
    this.addSql('create unique index emails_email_uniq on emails (lower(email));');
    this.addSql('create index emails_user_id_id_idx on emails (user_id, id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table emails;');
  }
}
