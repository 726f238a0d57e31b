import { Migration } from '@mikro-orm/migrations';

/**
 * Users following users (GitLab's user_follow_users): one row per follower and followee, removed with
 * either user. The primary key serves "whom does U follow"; the followee index "who follows U".
 * Expand-only: a new table the previous release never reads (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261211090000UserFollows extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table user_follow_users (
      follower_id integer not null references users (id) on delete cascade,
      followee_id integer not null references users (id) on delete cascade,
      created_at timestamptz(3) not null default now(),
      primary key (follower_id, followee_id),
      check (follower_id <> followee_id)
    );`);
    this.addSql(`create index user_follow_users_followee_idx on user_follow_users (followee_id, follower_id);`);
  }
}
