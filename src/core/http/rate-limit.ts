import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, RequestHandler, Response } from 'express';
import { requestToken } from '../auth/token';
import { sqlRows } from '../db/sql';

/**
 * GitLab's request throttles (10.3: "Add anonymous rate limit per IP, and authenticated (web or API) rate
 * limits per user", Rack::Attack in config/initializers/rack_attack_global.rb), in effect on every
 * instance at once: fixed windows of `periodSeconds`, counted in PostgreSQL (`rate_limit_counters`, one
 * upsert per throttled request), so N instances admit `limit` requests per window in total, not N ×.
 * docs/rest.md#rate-limits-throttle_ has the measurements and the tolerance.
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
/** Largest block of requests one instance takes from a window at once (see `leaseSize`). */
const MAX_LEASE = 50;
/** Keys whose lease this process remembers (oldest dropped first). */
const MAX_KEYS = 10_000;

/**
 * How many requests of a window one instance reserves per round trip: 1/64 of the limit, at most 50,
 * and never more than the window has left. A reserved request that is not used by the window's end is
 * simply not admitted by anyone: the total admitted never exceeds the limit; at worst a busy client is
 * refused up to (instances × (lease − 1)) requests early (docs/rest.md#rate-limits-throttle_).
 */
const leaseSize = (limit: number) => Math.min(MAX_LEASE, Math.max(1, Math.ceil(limit / 64)));

interface Lease {
  windowStart: number;
  /** Requests of this lease not yet used. */
  left: number;
  /** The window's count in PostgreSQL up to the end of this lease (for RateLimit-Observed). */
  upTo: number;
}

/** `warn`: where a failed clean-up of expired windows is reported (it is retried at the next interval). */
export function createRateLimiter(
  em: EntityManager,
  warn: (err: unknown, msg: string) => void = () => undefined,
): RateLimiter {
  let lastPrune = 0;
  const leases = new Map<string, Lease>();
  return {
    async hit(key, throttle, nowMs) {
      const now = Math.floor(nowMs / 1000);
      const period = throttle.periodSeconds;
      const windowStart = now - (now % period);
      const resetAt = windowStart + period;
      const full = `${throttle.name}:${key}`;
      const lease = leases.get(full);
      if (lease && lease.windowStart === windowStart && lease.left > 0) {
        lease.left -= 1;
        return { throttle, observed: lease.upTo - lease.left, resetAt, nowSeconds: now };
      }
      // One round trip reserves a block: the window's count grows by `n`, of which the part still under
      // the limit is admitted here (the whole block while far from it; none once it is reached).
      // Once this window is known to be spent, each refused request counts one (RateLimit-Observed).
      const n =
        lease && lease.windowStart === windowStart && lease.upTo >= throttle.limit ? 1 : leaseSize(throttle.limit);
      const [row] = await sqlRows<{ hits: number }>(
        em,
        `insert into rate_limit_counters (key, window_start, hits, expires_at) values (?, ?, ?, to_timestamp(?))
         on conflict (key, window_start) do update set hits = rate_limit_counters.hits + excluded.hits returning hits`,
        [full, windowStart, n, resetAt],
      );
      const before = Number(row.hits) - n;
      const admitted = Math.max(0, Math.min(n, throttle.limit - before));
      if (leases.size >= MAX_KEYS && !leases.has(full)) leases.delete(leases.keys().next().value!);
      leases.set(full, { windowStart, left: Math.max(0, admitted - 1), upTo: before + admitted });
      if (nowMs - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = nowMs;
        // Expired windows of every key; several instances doing it at once only repeat the work.
        void sqlRows(em, 'delete from rate_limit_counters where expires_at < now()').catch((err: unknown) =>
          warn(err, 'rate limits: deleting expired counters failed; retrying at the next interval'),
        );
      }
      return { throttle, observed: before + 1, resetAt, nowSeconds: now };
    },
    close() {
      lastPrune = Number.MAX_SAFE_INTEGER;
      leases.clear();
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

/** What the request throttle needs from the app: the settings, and whose token a request carries. */
export interface RequestThrottleDeps {
  limiter: RateLimiter;
  /** The throttle settings when this instance holds them already (no promise), else undefined. */
  known(): ThrottleConfig | undefined;
  settings(): Promise<ThrottleConfig>;
  /** The id of the user `token` authenticates, null for none (the app may keep the answer for the request's context). */
  identify(req: Request, token: string): Promise<number | null>;
  /** False while the database is unreachable: such a request answers 503 anyway, uncounted. */
  available(): boolean;
  warn(err: unknown, msg: string): void;
}

export interface RequestThrottle {
  /** Before any body is read: charges a request whose identity is known (a token in a header or the query, or no body to carry one). */
  beforeBody: RequestHandler;
  /** After the body is read (GraphQL after its JSON parser, REST after the route's readers): charges a request `beforeBody` left to its body, or answers 429. */
  afterBody: RequestHandler;
}

/** A body that may hold `private_token` (JSON, form or multipart; an empty one holds nothing). */
const mayCarryToken = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;

/**
 * Each request is charged to the identity it is served as, whatever carries its token (header, query,
 * JSON, form or multipart body): the authenticated budget of the token's user, or the unauthenticated
 * budget of the client address, never both. A request without a header or query token but with a body
 * is charged once the body is read (`afterBody`, before its operation runs); one that is
 * answered before that (no such route, a body its parser refuses) counts as anonymous when it ends.
 * No address is exempt (GitLab's throttles have no safelist); the /-/ ops endpoints are answered before.
 */
export function requestThrottle(deps: RequestThrottleDeps): RequestThrottle {
  const deferred = new WeakMap<Request, ThrottleConfig>();

  async function charge(
    req: Request,
    res: Response,
    config: ThrottleConfig,
    token: string | undefined,
  ): Promise<boolean> {
    const userId = token === undefined ? null : await deps.identify(req, token);
    const rule = userId === null ? config.unauthenticated : config.authenticatedApi;
    if (!rule) return true;
    const hit = await deps.limiter.hit(userId === null ? `ip:${req.ip}` : `user:${userId}`, rule, Date.now());
    if (!throttled(hit)) return true;
    sendThrottled(res, hit);
    return false;
  }

  async function before(req: Request, res: Response): Promise<boolean> {
    if (!deps.available()) return true;
    const config = await deps.settings();
    if (!config.unauthenticated && !config.authenticatedApi) return true;
    const token = requestToken(req, { body: false });
    if (token !== undefined || !mayCarryToken(req)) return charge(req, res, config, token);
    deferred.set(req, config);
    res.once('close', () => {
      const anonymous = config.unauthenticated;
      if (!deferred.delete(req) || !anonymous) return;
      deps.limiter
        .hit(`ip:${req.ip}`, anonymous, Date.now())
        .catch((err: unknown) =>
          deps.warn(err, 'rate limits: counting a request answered before authentication failed'),
        );
    });
    return true;
  }

  function settle(req: Request, res: Response): Promise<boolean> | undefined {
    const config = deferred.get(req);
    if (!config) return undefined;
    deferred.delete(req);
    return charge(req, res, config, requestToken(req, { body: true }));
  }

  return {
    beforeBody(req, res, next) {
      // Throttling off and known to this instance (the usual case): on at once, without a promise.
      const known = deps.known();
      if (known && !known.unauthenticated && !known.authenticatedApi) return next();
      void before(req, res).then((passed) => passed && next(), next);
    },
    afterBody(req, res, next) {
      const settled = settle(req, res);
      if (!settled) return next();
      void settled.then((passed) => passed && next(), next);
    },
  };
}
