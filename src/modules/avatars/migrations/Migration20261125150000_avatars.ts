import { Migration } from '@mikro-orm/migrations';

/**
 * Avatars of users and projects, stored in PostgreSQL so that every instance serves them.
 * One row per owner; the owner's row keeps the file name (`users.avatar`, `projects.avatar`, GitLab's
 * columns) so that lists build `avatar_url` without reading this table. Deleting the owner deletes its
 * avatar (FK cascade). Images are already compressed: `storage external` skips PostgreSQL's attempt.
 */
export class Migration20261125150000Avatars extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table avatars (
      id serial primary key,
      user_id integer null unique references users (id) on delete cascade,
      project_id integer null unique references projects (id) on delete cascade,
      filename varchar(255) not null,
      content_type varchar(64) not null,
      size integer not null check (size between 1 and 204800),
      sha256 char(64) not null,
      data bytea not null,
      created_at timestamptz not null default now(),
      check (num_nonnulls(user_id, project_id) = 1)
    )`);
    this.addSql('alter table avatars alter column data set storage external');
    this.addSql('alter table users add column avatar varchar(255) null');
    this.addSql('alter table projects add column avatar varchar(255) null');
  }
}
