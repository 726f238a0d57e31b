import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { destroyClient, heartbeat, HEARTBEAT_MS, HEARTBEAT_TIMEOUT_MS } from './connection-watch';

/**
 * An app-scoped cache for rarely written, often read records (application settings, feature flags,
 * credentials: docs/security.md#credential-cache) that stays correct with several service instances on one
 * PostgreSQL: a write calls
 * `invalidate(em, key)`, which forgets the key here and sends `NOTIFY` on the write's own connection
 * (PostgreSQL delivers it at commit, and never for a rolled-back transaction); every instance LISTENs
 * on one dedicated connection and forgets the key when the notification arrives.
 * Database triggers may NOTIFY the same channel (the credentials' tables do). While that connection is
 * down (database restart, or silent: the heartbeat below) nothing is cached: every `get` loads, and all
 * entries are dropped on reconnect, because notifications may have been missed meanwhile.
 */
export interface SharedCache {
  get<T>(key: string, load: () => Promise<T>, opts?: GetOptions<T>): Promise<T>;
  /**
   * The value `get` would answer for `key` when it is cached and already loaded, without a promise
   * (per-request checks that must not yield, e.g. the throttle switch); undefined otherwise, and then
   * the caller uses `get`. The same invalidation rules: nothing while the LISTEN connection is down.
   */
  peek<T>(key: string): T | undefined;
  /** Forget `key` (and the entries tagged with it) in this instance only: after a commit whose triggers notify the others. */
  forgetHere(key: string): void;
  /** Forget `key` in this instance now and in every other instance when the write commits. */
  invalidate(em: EntityManager, key: string): Promise<void>;
  /** Fires with the key after an invalidation from any instance has been applied here. */
  readonly events: EventEmitter;
  /** Resolves once the LISTEN connection is up (tests and start-up). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * For entries whose invalidation keys are known only once loaded (a token's user): `tags(value)`
 * names further keys whose invalidation also forgets the entry; `ttlMs` bounds its life. A load that
 * overlaps any invalidation is returned but not kept (its tags were unknown while it ran).
 */
export interface GetOptions<T> {
  tags?: (value: T) => string[];
  ttlMs?: number;
}

export const CACHE_CHANNEL = 'app_cache_invalidate';
/** Entries kept at most (the least recently used is dropped first): tagged entries are one per caller. */
export const SHARED_CACHE_MAX_ENTRIES = 10_000;
const MAX_BACKOFF_MS = 5000;

/** An untagged load takes its place at once (shared by concurrent gets); an invalidation removes it, so a load that raced one is not kept. */
interface Entry {
  value: Promise<unknown>;
  /** Set once `value` has resolved (what `peek` answers). */
  loaded?: { value: unknown };
  tags?: string[];
  expiresAt?: number;
  /** The insertion count when it was last placed (`touch`). */
  at?: number;
}

export interface SharedCacheOptions {
  connectionString: string;
  log?: (msg: string) => void;
  /** How often the LISTEN connection is asked `select 1` (default 10 s), and how long it may take to answer (5 s). */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

export function createSharedCache(opts: SharedCacheOptions): SharedCache {
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeatTimeoutMs = opts.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const entries = new Map<string, Entry>();
  /** tag → keys of the entries carrying it. */
  const tagged = new Map<string, Set<string>>();
  /** Bumped by every invalidation: a tagged load that saw it change is not kept. */
  let epoch = 0;
  const events = new EventEmitter();
  let client: Client | undefined;
  let listening = false;
  let closed = false;
  let backoff = 100;
  let readyWaiters: (() => void)[] = [];

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const tag of entry.tags ?? []) {
      const keys = tagged.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) tagged.delete(tag);
    }
  };
  const forget = (key: string) => {
    epoch += 1;
    drop(key);
    for (const k of [...(tagged.get(key) ?? [])]) forget(k);
  };
  const forgetAll = () => {
    epoch += 1;
    for (const key of [...entries.keys()]) forget(key);
  };

  /** The LISTEN connection is gone (or silent): cache nothing, drop everything, reconnect. */
  const lose = (c: Client) => {
    if (client !== c) return;
    listening = false;
    client = undefined;
    forgetAll();
    if (!closed) setTimeout(() => void connect(), backoff).unref();
  };

  /** Entries placed so far (each records the count at its placing). */
  let placed = 0;
  const place = (key: string, entry: Entry) => {
    entry.at = ++placed;
    entries.set(key, entry);
  };
  /**
   * A used entry goes last (the bound drops the least recently used first). One placed within the last
   * half-bound placings stays where it is: half the bound must be placed after it before it can be
   * dropped, and a use meanwhile moves it then. Saves a delete and a set on most reads of hot entries.
   */
  const touch = (key: string, hit: Entry) => {
    if (placed - (hit.at ?? 0) < SHARED_CACHE_MAX_ENTRIES / 2) return;
    entries.delete(key);
    place(key, hit);
  };

  const bound = () => {
    while (entries.size > SHARED_CACHE_MAX_ENTRIES) drop(entries.keys().next().value as string);
  };

  /**
   * A tagged load is not shared while it runs and takes a place only once loaded: its tags are unknown
   * until then, so an invalidation meanwhile could not reach it (a request arriving after that
   * invalidation must not get this load's answer), and a load that fails (an unknown token) never
   * takes a place. Any invalidation during the load (epoch) and it is not kept.
   */
  const loadTagged = async <T>(key: string, load: () => Promise<T>, opts: GetOptions<T>): Promise<T> => {
    const startEpoch = epoch;
    const result = await load();
    if (epoch !== startEpoch || !listening || entries.has(key)) return result;
    const entry: Entry = { value: Promise.resolve(result), loaded: { value: result }, tags: opts.tags!(result) };
    if (opts.ttlMs !== undefined) entry.expiresAt = Date.now() + opts.ttlMs;
    place(key, entry);
    for (const tag of entry.tags!) {
      let keys = tagged.get(tag);
      if (!keys) tagged.set(tag, (keys = new Set()));
      keys.add(key);
    }
    bound();
    return result;
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new Client({ connectionString: opts.connectionString, connectionTimeoutMillis: 5000 });
    c.on('notification', (n) => {
      if (n.channel !== CACHE_CHANNEL || n.payload === undefined) return;
      forget(n.payload);
      events.emit('invalidated', n.payload);
    });
    c.on('error', () => undefined); // 'end' below handles the loss
    c.on('end', () => lose(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (e) {
      opts.log?.(
        `shared cache: LISTEN connection failed (${(e as Error).message}); retrying, caching is off meanwhile`,
      );
      await c.end().catch(() => undefined);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      if (!closed) setTimeout(() => void connect(), backoff).unref();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    backoff = 100;
    forgetAll(); // anything cached before this connection may have missed a notification
    listening = true;
    // A connection that stops answering counts as lost, as one that ended (connection-watch.ts).
    heartbeat(c, {
      everyMs: heartbeatMs,
      timeoutMs: heartbeatTimeoutMs,
      watching: () => client === c,
      onSilent: () => {
        lose(c);
        destroyClient(c);
      },
    });
    for (const w of readyWaiters) w();
    readyWaiters = [];
  };
  void connect();

  return {
    events,
    async get<T>(key: string, load: () => Promise<T>, opts?: GetOptions<T>): Promise<T> {
      if (!listening) return load();
      const hit = entries.get(key);
      if (hit) {
        if (hit.expiresAt === undefined || hit.expiresAt > Date.now()) {
          touch(key, hit);
          return hit.value as Promise<T>;
        }
        drop(key);
      }
      if (opts?.tags) return loadTagged(key, load, opts);
      const value = load();
      const entry: Entry = { value };
      if (opts?.ttlMs !== undefined) entry.expiresAt = Date.now() + opts.ttlMs;
      place(key, entry);
      bound();
      value.then(
        (v) => (entry.loaded = { value: v }),
        () => entries.get(key) === entry && drop(key),
      );
      return value;
    },
    peek<T>(key: string): T | undefined {
      if (!listening) return undefined;
      const hit = entries.get(key);
      if (!hit?.loaded || (hit.expiresAt !== undefined && hit.expiresAt <= Date.now())) return undefined;
      // Used, as by get: an entry read only through peek (the throttle switch) must not age out of the bound.
      touch(key, hit);
      return hit.loaded.value as T;
    },
    forgetHere: (key) => forget(key),
    async invalidate(em, key) {
      forget(key);
      // On the write's transaction when there is one, so the notification goes out at its commit.
      await em
        .getConnection()
        .execute('select pg_notify(?, ?)', [CACHE_CHANNEL, key], 'all', em.getTransactionContext());
    },
    ready() {
      return listening ? Promise.resolve() : new Promise((resolve) => readyWaiters.push(resolve));
    },
    async close() {
      closed = true;
      listening = false;
      const c = client;
      client = undefined;
      if (c) await c.end().catch(() => undefined);
    },
  };
}

/** For one-off processes (seed, CLIs): nothing cached, invalidations still reach running instances. */
export function uncachedSharedCache(): SharedCache {
  return {
    events: new EventEmitter(),
    get: (_key, load) => load(),
    peek: () => undefined,
    forgetHere: () => undefined,
    async invalidate(em, key) {
      await em
        .getConnection()
        .execute('select pg_notify(?, ?)', [CACHE_CHANNEL, key], 'all', em.getTransactionContext());
    },
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
