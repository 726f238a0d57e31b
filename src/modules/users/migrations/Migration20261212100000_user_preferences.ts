import { Migration } from '@mikro-orm/migrations';

/**
 * A user's preferences (GitLab's user_preferences; the users API's `/user/preferences`): one row per
 * user, written on the first change and removed with the user. The defaults are GitLab's. Expand-only:
 * a new table (docs/operations.md#upgrades-and-rollbacks).
 */
export class Migration20261212100000UserPreferences extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table user_preferences (
      id serial primary key,
      user_id integer not null unique references users (id) on delete cascade,
      view_diffs_file_by_file boolean not null default false,
      show_whitespace_in_diffs boolean not null default true,
      pass_user_identities_to_ci_jwt boolean not null default false,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null
    );`);
  }
}
