import { Migration } from '@mikro-orm/migrations';

/**
 * `cache_notify(key, …)`: a statement-level trigger function that sends each of its arguments on the
 * shared cache's channel (`app_cache_invalidate`, core/db/shared-cache.ts), delivered at commit to every
 * instance and never for a rolled-back write. A module whose rows back a shared-cache entry puts it on
 * its table, so that a write from anywhere (another program, an SQL console) reaches every instance's
 * cache, not only the service's own writes (docs/scale-out.md#caches). PostgreSQL folds
 * identical notices of one transaction into one, so the service's own `invalidate` beside it costs nothing.
 */
export class Migration20261209090000CacheNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function cache_notify() returns trigger language plpgsql as $$
      declare k text;
      begin
        foreach k in array tg_argv loop
          perform pg_notify('app_cache_invalidate', k);
        end loop;
        return null;
      end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists cache_notify();');
  }
}
