import { Migration } from '@mikro-orm/migrations';

/**
 * Fixed-window request counters shared by every instance (core/http/rate-limit.ts). UNLOGGED: counts
 * are worth nothing after a crash of PostgreSQL (the table is emptied then, which only re-opens the
 * current windows), and skipping the WAL keeps the one upsert per request cheap.
 */
export class Migration20261202120000RateLimitCounters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create unlogged table rate_limit_counters (
        key text not null,
        window_start bigint not null,
        hits integer not null,
        expires_at timestamptz not null,
        primary key (key, window_start)
      );`);
    this.addSql('create index rate_limit_counters_expires on rate_limit_counters (expires_at);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table rate_limit_counters;');
  }
}
