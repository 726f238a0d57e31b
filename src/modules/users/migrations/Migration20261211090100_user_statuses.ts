import { Migration } from '@mikro-orm/migrations';

/**
 * A user's status (GitLab's user_statuses, 11.0): an emoji, a short message, an availability and
 * when it clears itself. One row per user, removed with the user. Expand-only: a new table
 * (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261211090100UserStatuses extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table user_statuses (
      user_id integer primary key references users (id) on delete cascade,
      emoji varchar(255) not null default 'speech_balloon',
      message varchar(100) null,
      availability smallint not null default 0,
      clear_status_at timestamptz(3) null
    );`);
  }
}
