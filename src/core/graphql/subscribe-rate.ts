import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../db/sql';

/**
 * Subscribe operations per holder (`user:<id>`, or `ip:<address>` for anonymous connections) and
 * minute, counted in PostgreSQL as the HTTP throttles are (`rate_limit_counters`, fixed windows, core/http/rate-limit.ts),
 * so every worker and instance admits `perMinute` in total. One upsert per subscribe; once a window is
 * known to be spent, this worker refuses the holder's next subscribes without a statement.
 */
export interface SubscribeRate {
  /** null when admitted, else the seconds until the window ends. */
  hit(holder: string, nowMs: number): Promise<number | null>;
}

const WINDOW_SECONDS = 60;
const PRUNE_EVERY_MS = 60_000;
/** Spent windows this worker remembers (oldest dropped first). */
const MAX_SPENT = 10_000;

export function createSubscribeRate(em: () => Promise<EntityManager>, perMinute: number): SubscribeRate {
  const spentUntil = new Map<string, number>();
  let lastPrune = 0;
  return {
    async hit(holder, nowMs) {
      const now = Math.floor(nowMs / 1000);
      const windowStart = now - (now % WINDOW_SECONDS);
      const resetAt = windowStart + WINDOW_SECONDS;
      const known = spentUntil.get(holder);
      if (known !== undefined && known > now) return known - now;
      const conn = await em();
      const [row] = await sqlRows<{ hits: number }>(
        conn,
        `insert into rate_limit_counters (key, window_start, hits, expires_at) values (?, ?, 1, to_timestamp(?))
         on conflict (key, window_start) do update set hits = rate_limit_counters.hits + 1 returning hits`,
        [`subscribe:${holder}`, windowStart, resetAt],
      );
      if (nowMs - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = nowMs;
        // Expired windows of every key (the HTTP throttles' too); a failure is retried a minute later.
        void sqlRows(conn, 'delete from rate_limit_counters where expires_at < now()').catch(() => undefined);
      }
      if (Number(row.hits) <= perMinute) return null;
      spentUntil.delete(holder);
      if (spentUntil.size >= MAX_SPENT) spentUntil.delete(spentUntil.keys().next().value!);
      spentUntil.set(holder, resetAt);
      return resetAt - now;
    },
  };
}
