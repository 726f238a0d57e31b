import { Migration } from '@mikro-orm/migrations';

/**
 * `GET /users?search=` matches username, name and email as substrings (GitLab's `User.search`); the
 * email gets its trigram index like username and name (initial migration), so the OR is a BitmapOr of
 * three GIN scans instead of a scan of the table. Skipped when pg_trgm is unavailable.
 */
export class Migration20261203140200UsersEmailTrgm extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      do $$ begin
        if exists (select 1 from pg_extension where extname = 'pg_trgm') then
          execute 'create index if not exists users_email_trgm on users using gin (email gin_trgm_ops)';
        end if;
      end $$;`);
  }
}
