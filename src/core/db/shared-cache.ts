import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * An app-scoped cache for small, rarely written, often read records (application settings, feature
 * flags) that stays correct with several service instances on one PostgreSQL: a write calls
 * `invalidate(em, key)`, which forgets the key here and sends `NOTIFY` on the write's own connection
 * (PostgreSQL delivers it at commit, and never for a rolled-back transaction); every instance LISTENs
 * on one dedicated connection and forgets the key when the notification arrives.
 * While that connection is down (database restart) nothing is cached: every `get` loads, and all
 * entries are dropped on reconnect, because notifications may have been missed meanwhile.
 */
export interface SharedCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Forget `key` in this instance now and in every other instance when the write commits. */
  invalidate(em: EntityManager, key: string): Promise<void>;
  /** Fires with the key after an invalidation from any instance has been applied here. */
  readonly events: EventEmitter;
  /** Resolves once the LISTEN connection is up (tests and start-up). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const CACHE_CHANNEL = 'app_cache_invalidate';
const MAX_BACKOFF_MS = 5000;

interface Entry {
  value: Promise<unknown>;
  /** Bumped by every invalidation of this key, so a load that raced an invalidation is not kept. */
  generation: number;
}

export function createSharedCache(opts: { connectionString: string; log?: (msg: string) => void }): SharedCache {
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();
  const events = new EventEmitter();
  let client: Client | undefined;
  let listening = false;
  let closed = false;
  let backoff = 100;
  let readyWaiters: (() => void)[] = [];

  const forget = (key: string) => {
    entries.delete(key);
    generations.set(key, (generations.get(key) ?? 0) + 1);
  };
  const forgetAll = () => {
    for (const key of [...entries.keys()]) forget(key);
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
    c.on('end', () => {
      if (client !== c) return;
      listening = false;
      client = undefined;
      forgetAll();
      if (!closed) setTimeout(() => void connect(), backoff).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CACHE_CHANNEL}`);
    } catch (e) {
      opts.log?.(`shared cache: LISTEN connection failed (${(e as Error).message}); retrying, caching is off meanwhile`);
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
    for (const w of readyWaiters) w();
    readyWaiters = [];
  };
  void connect();

  return {
    events,
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!listening) return load();
      const hit = entries.get(key);
      if (hit) return hit.value as Promise<T>;
      const generation = generations.get(key) ?? 0;
      const value = load();
      entries.set(key, { value, generation });
      value.catch(() => entries.get(key)?.value === value && entries.delete(key));
      const result = await value;
      if ((generations.get(key) ?? 0) !== generation && entries.get(key)?.value === value) entries.delete(key);
      return result;
    },
    async invalidate(em, key) {
      forget(key);
      // On the write's transaction when there is one, so the notification goes out at its commit.
      await em.getConnection().execute('select pg_notify(?, ?)', [CACHE_CHANNEL, key], 'all', em.getTransactionContext());
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
    async invalidate(em, key) {
      await em.getConnection().execute('select pg_notify(?, ?)', [CACHE_CHANNEL, key], 'all', em.getTransactionContext());
    },
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
