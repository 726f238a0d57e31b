import { Migration } from '@mikro-orm/migrations';

/**
 * A user's last activity day (GitLab's users.last_activity_on), written at most once a day per user
 * by authenticated API requests (user-activity.ts). The partial index serves `GET /user/activities`
 * (`last_activity_on >= from`, ordered by it then id) and leaves out users never active.
 */
export class Migration20261204090100UsersLastActivityOn extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table users add column last_activity_on date null;`);
    this.addSql(
      `create index users_last_activity_on_idx on users (last_activity_on, id) where last_activity_on is not null;`,
    );
  }
}
