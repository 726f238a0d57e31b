import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteInBatches, sqlRows } from '../../core/db/sql';
import { ForbiddenError } from '../../core/errors/domain-errors';
import type { BackgroundEnv, BackgroundTask } from '../../core/module/app-module';
import { positiveIntSetting, readSetting } from '../../core/module/env-settings';

/**
 * unique_ips_limit_enabled / _per_user / _time_window (spec 4.18): a user's API requests from more
 * distinct addresses than allowed within the window are refused (GitLab's UniqueIpsLimiter). The token
 * lookup joins these columns (one query: nothing extra while the limit is off).
 */
export const UNIQUE_IPS_JOIN =
  'left join application_settings ips_s on ips_s.id = 1 and ips_s.unique_ips_limit_enabled';
export const UNIQUE_IPS_COLUMNS =
  'ips_s.unique_ips_limit_per_user as ips_limit, ips_s.unique_ips_limit_time_window as ips_window';

export interface UniqueIpsLimit {
  ips_limit: number | null;
  ips_window: number | null;
}

export const TOO_MANY_IPS = 'Too many IPs';

/**
 * Records this request's address for the user (one statement: upsert, expiry of old addresses, count
 * of the others still in the window) and returns the refusal when the count exceeds the limit.
 */
export async function uniqueIpsRefusal(
  em: EntityManager,
  limit: UniqueIpsLimit,
  userId: number,
  ip: string | undefined,
  now: Date,
): Promise<ForbiddenError | null> {
  if (limit.ips_limit === null || limit.ips_window === null || !ip) return null;
  const since = new Date(now.getTime() - limit.ips_window * 1000);
  const [row] = await sqlRows<{ n: number }>(
    em,
    `with upsert as (
       insert into user_request_ips (user_id, ip, last_seen_at) values (?, ?, ?)
       on conflict (user_id, ip) do update set last_seen_at = excluded.last_seen_at returning ip
     ), expired as (
       delete from user_request_ips where user_id = ? and last_seen_at <= ? returning ip
     )
     select count(*)::int + 1 as n from user_request_ips where user_id = ? and ip <> ? and last_seen_at > ?`,
    [userId, ip.slice(0, 64), now, userId, since, userId, ip.slice(0, 64), since],
  );
  return row.n > limit.ips_limit ? new ForbiddenError(TOO_MANY_IPS) : null;
}

/**
 * Deletes the addresses last seen before the current window (`unique_ips_limit_time_window`, default
 * 3600 s, whether the limit is on or off): they never count again, and a request only expires its own
 * user's, so a user who stops calling would keep theirs for ever. In batches (`deleteInBatches`: an
 * address a request refreshes meanwhile stays); `stopped` ends it between two batches.
 */
export function pruneRequestIps(em: EntityManager, now: Date, stopped?: () => boolean): Promise<number> {
  return deleteInBatches(
    em,
    'user_request_ips',
    'last_seen_at <= ?::timestamptz - make_interval(secs => coalesce((select s.unique_ips_limit_time_window from application_settings s where s.id = 1), 3600))',
    [now],
    { batch: 5000, stopped },
  );
}

/** docs/configuration.md#environment-variables. */
export const UNIQUE_IPS_PRUNE_MS = positiveIntSetting('UNIQUE_IPS_PRUNE_MS', 3_600_000);

/**
 * The clean-up as a background task of every instance (docs/scale-out.md: several
 * instances deleting at once only repeat work): every UNIQUE_IPS_PRUNE_MS (default one hour), the first
 * one interval after start.
 */
export function startRequestIpsPrune(env: BackgroundEnv): BackgroundTask {
  const everyMs = readSetting(env.env, UNIQUE_IPS_PRUNE_MS);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return; // the previous round is still deleting
    busy = true;
    running = pruneRequestIps(env.em, new Date(), () => stopped)
      .then(
        (n) => void (n > 0 && env.logger.info({ deleted: n }, 'unique IPs: deleted addresses past the window')),
        (err: unknown) =>
          env.logger.warn(
            { err },
            'unique IPs: deleting addresses past the window failed; retrying at the next interval',
          ),
      )
      .finally(() => (busy = false));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true; // a long clean-up ends after its current batch
      clearInterval(timer);
      await running;
    },
  };
}
