import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import { sqlRows } from '../db/sql';

/**
 * GitLab's request throttles (10.3: "Add anonymous rate limit per IP, and authenticated (web or API) rate
 * limits per user", Rack::Attack in config/initializers/rack_attack_global.rb), in effect on every
 * instance at once: fixed windows of `periodSeconds`, counted in PostgreSQL (`rate_limit_counters`, one
 * upsert per throttled request), so N instances admit `limit` requests per window in total, not N ×.
 * README "Rate limits" has the measurements and the tolerance.
 */
export interface Throttle {
  /** GitLab's throttle name, sent as RateLimit-Name. */
  name: 'throttle_unauthenticated' | 'throttle_authenticated_api' | 'throttle_authenticated_web';
  limit: number;
  periodSeconds: number;
}

/** The throttles switched on (application settings); both absent: throttling costs nothing. */
export interface ThrottleConfig {
  unauthenticated?: Throttle;
  authenticatedApi?: Throttle;
}

export interface Hit {
  throttle: Throttle;
  /** Requests counted in this window, this one included. */
  observed: number;
  /** Unix seconds when the window ends. */
  resetAt: number;
  nowSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` under `throttle` and returns the window's count. */
  hit(key: string, throttle: Throttle, nowMs: number): Promise<Hit>;
  close(): void;
}

const PRUNE_EVERY_MS = 60_000;

export function createRateLimiter(em: EntityManager): RateLimiter {
  let lastPrune = 0;
  return {
    async hit(key, throttle, nowMs) {
      const now = Math.floor(nowMs / 1000);
      const period = throttle.periodSeconds;
      const windowStart = now - (now % period);
      const resetAt = windowStart + period;
      const [row] = await sqlRows<{ hits: number }>(
        em,
        `insert into rate_limit_counters (key, window_start, hits, expires_at) values (?, ?, 1, to_timestamp(?))
         on conflict (key, window_start) do update set hits = rate_limit_counters.hits + 1 returning hits`,
        [`${throttle.name}:${key}`, windowStart, resetAt],
      );
      if (nowMs - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = nowMs;
        // Expired windows of every key; several instances doing it at once only repeat the work.
        void sqlRows(em, 'delete from rate_limit_counters where expires_at < now()').catch(() => undefined);
      }
      return { throttle, observed: Number(row.hits), resetAt, nowSeconds: now };
    },
    close() {
      lastPrune = Number.MAX_SAFE_INTEGER;
    },
  };
}

export const throttled = (hit: Hit): boolean => hit.observed > hit.throttle.limit;

/**
 * Rack::Attack's answer (429, text/plain `Retry later`) with the headers later GitLab sends on it
 * (GitLab docs, "User and IP rate limits", response headers): RateLimit-Limit is the quota per minute,
 * rounded up, as GitLab reports it.
 */
export function sendThrottled(res: Response, hit: Hit): void {
  const { limit, periodSeconds, name } = hit.throttle;
  const retryAfter = Math.max(1, hit.resetAt - hit.nowSeconds);
  res.status(429).set({
    'Content-Type': 'text/plain; charset=utf-8',
    'Retry-After': String(retryAfter),
    'RateLimit-Name': name,
    'RateLimit-Limit': String(Math.ceil((limit * 60) / periodSeconds)),
    'RateLimit-Observed': String(hit.observed),
    'RateLimit-Remaining': String(Math.max(0, limit - hit.observed)),
    'RateLimit-Reset': String(hit.resetAt),
    'RateLimit-ResetTime': new Date(hit.resetAt * 1000).toUTCString(),
  });
  res.send('Retry later\n');
}
