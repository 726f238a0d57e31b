import type { EntityManager } from '@mikro-orm/postgresql';
import type { ThrottleConfig } from '../../core/http/rate-limit';
import type { SharedCache } from '../../core/db/shared-cache';
import { sqlRows } from '../../core/db/sql';

/**
 * The throttle settings every request consults (core/http/rate-limit.ts), kept in the app's shared
 * cache: read once per process, forgotten on every instance when a settings write commits (the
 * update's `invalidate`, LISTEN/NOTIFY), and read per request while the LISTEN connection is down.
 */
export const THROTTLES_CACHE_KEY = 'application_settings:throttles';

type Row = Record<string, boolean | number>;

const COLUMNS = ['unauthenticated', 'authenticated_api'].flatMap((t) => [
  `throttle_${t}_enabled`,
  `throttle_${t}_requests_per_period`,
  `throttle_${t}_period_in_seconds`,
]);

async function load(em: EntityManager): Promise<ThrottleConfig> {
  const [row] = await sqlRows<Row>(em, `select ${COLUMNS.join(', ')} from application_settings where id = 1`);
  if (!row) return {};
  const of = (t: 'unauthenticated' | 'authenticated_api') =>
    row[`throttle_${t}_enabled`]
      ? {
          name: `throttle_${t}` as const,
          limit: Number(row[`throttle_${t}_requests_per_period`]),
          periodSeconds: Number(row[`throttle_${t}_period_in_seconds`]),
        }
      : undefined;
  return { unauthenticated: of('unauthenticated'), authenticatedApi: of('authenticated_api') };
}

export function throttleConfig(em: EntityManager, cache: SharedCache): Promise<ThrottleConfig> {
  return cache.get(THROTTLES_CACHE_KEY, () => load(em));
}

/** The throttle settings when this instance holds them already (no promise), else undefined: call `throttleConfig`. */
export function knownThrottleConfig(cache: SharedCache): ThrottleConfig | undefined {
  return cache.peek<ThrottleConfig>(THROTTLES_CACHE_KEY);
}
