import { Migration } from '@mikro-orm/migrations';

/**
 * The credential cache (docs/security.md#credential-cache; authenticate.ts) keeps a token's row
 * and its user per instance. The service's own writes invalidate it directly; these triggers tell
 * every instance about writes from anywhere else (an SQL console, another program on the database),
 * on the shared cache's channel (`app_cache_invalidate`, delivered at commit, never for a rollback):
 * - an UPDATE or DELETE of users or personal_access_tokens sends `auth:user:<id>` per user touched,
 *   or `auth` (forget every credential) when a statement touches more than 100 users, so a bulk
 *   update queues one notice instead of one per row;
 * - TRUNCATE of either table, and any UPDATE of application_settings (the unique-IPs limit is read
 *   with the credential), send `auth`.
 * Inserts need no notice: a new token or user is not in any cache yet.
 * Statement-level triggers with transition tables: PostgreSQL allows one event per such trigger,
 * hence two per table.
 */
export class Migration20261208090000AuthCacheNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function auth_cache_notify_users() returns trigger language plpgsql as $$
      declare ids bigint[];
      begin
        if tg_table_name = 'users' then
          select array_agg(id) into ids from (select id from old_rows limit 101) o;
        else
          select array_agg(u) into ids from (select distinct user_id as u from old_rows limit 101) o;
        end if;
        if coalesce(cardinality(ids), 0) > 100 then
          perform pg_notify('app_cache_invalidate', 'auth');
        elsif ids is not null then
          perform pg_notify('app_cache_invalidate', 'auth:user:' || i) from unnest(ids) i;
        end if;
        return null;
      end $$;`);
    this.addSql(`
      create or replace function auth_cache_notify_all() returns trigger language plpgsql as $$
      begin
        perform pg_notify('app_cache_invalidate', 'auth');
        return null;
      end $$;`);
    for (const table of ['users', 'personal_access_tokens']) {
      this.addSql(`create trigger ${table}_auth_cache_update after update on ${table} referencing old table as old_rows
        for each statement execute function auth_cache_notify_users();`);
      this.addSql(`create trigger ${table}_auth_cache_delete after delete on ${table} referencing old table as old_rows
        for each statement execute function auth_cache_notify_users();`);
      this.addSql(`create trigger ${table}_auth_cache_truncate after truncate on ${table}
        for each statement execute function auth_cache_notify_all();`);
    }
    this.addSql(`create trigger application_settings_auth_cache after update on application_settings
      for each statement execute function auth_cache_notify_all();`);
  }

  override async down(): Promise<void> {
    for (const table of ['users', 'personal_access_tokens']) {
      for (const event of ['update', 'delete', 'truncate'])
        this.addSql(`drop trigger if exists ${table}_auth_cache_${event} on ${table};`);
    }
    this.addSql('drop trigger if exists application_settings_auth_cache on application_settings;');
    this.addSql('drop function if exists auth_cache_notify_users();');
    this.addSql('drop function if exists auth_cache_notify_all();');
  }
}
