import { Client } from 'pg';
import { destroyClient, heartbeat, HEARTBEAT_MS, HEARTBEAT_TIMEOUT_MS } from '../db/connection-watch';
import { NotificationMemo } from './notification-memo';

/**
 * PostgreSQL notifications for live subscribers (GraphQL subscriptions, docs/graphql.md#subscriptions-live-updates): one
 * LISTEN connection per instance, opened when the first handler arrives and closed with the last, shared
 * by every channel. Writers NOTIFY on their own transaction, so a handler hears of a change only once it
 * committed, on every instance. When the connection is lost every handler is told (`onLost`) and
 * dropped: notifications in between may be missed, so subscribers end with an error and resubscribe.
 *
 * Each connection is tracked by identity: an old connection that ends (the last handler left and a new
 * one arrived before it closed) or fails never touches the handlers of the current one, and a
 * connection the hub abandons is closed, so connections cannot pile up and no notification is handed
 * over twice. A connection that died without a FIN (a restarted host, a dropped NAT entry) delivers
 * nothing and never ends: every `heartbeatMs` a `select 1` must answer within `heartbeatTimeoutMs`, or
 * it counts as lost (core/db/connection-watch.ts, as for the shared cache).
 */
export interface NotificationHub {
  /**
   * Calls `onPayload` for each notification on `channel`; resolves once listening. Returns the unsubscribe.
   * Every handler of one notification gets the same memo (values computed once per notification).
   */
  listen(
    channel: string,
    onPayload: (payload: string, memo: NotificationMemo) => void,
    onLost: (why: Error) => void,
  ): Promise<() => void>;
  /** A hold on the LISTEN connection's session (opened if need be, kept open until every hold and handler is gone). */
  hold(): Promise<HubSession>;
  close(): Promise<void>;
}

/**
 * A hold on the hub's database session. State a caller keeps in the session (advisory locks: the
 * subscription slots, core/graphql/subscription-slots.ts) lasts as long as `connection`: a lost or
 * closed connection ends it, on the server too.
 */
export interface HubSession {
  /** Identifies the connection (a new one after a loss has no state of the old). */
  readonly connection: object;
  /** One statement on the session ($1-style parameters); rejects once the connection is no longer the hub's. */
  query<R>(sql: string, params: unknown[]): Promise<R[]>;
  /** Whether `connection` is still the hub's. */
  alive(): boolean;
  /** Ends the hold (once); the connection closes when nothing else holds or listens on it. */
  release(): void;
}

export interface NotificationHubOptions {
  /** How often the connection is asked `select 1` (default 10 s), and how long it may take (5 s). */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

interface Handler {
  channel: string;
  onPayload: (payload: string, memo: NotificationMemo) => void;
  onLost: (why: Error) => void;
}

/** One LISTEN connection: the client once connected, the LISTEN statement sent per channel, the holds on its session. */
interface Connection {
  client: Promise<Client>;
  listens: Map<string, Promise<unknown>>;
  holds: number;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const lostError = () => new Error('the live updates connection to the database was lost; subscribe again');

/** A graceful end, or `destroyClient` when the server does not answer within a second (a frozen or unreachable one). */
function endSoon(c: Client): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      destroyClient(c);
      resolve();
    }, 1000);
    timer.unref();
    c.end()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

/** A handler's failure never keeps the others from being called, nor escapes into the driver's socket events. */
function safely(f: () => void): void {
  try {
    f();
  } catch {
    // the handler's own problem (a subscriber's iterator): the others go on
  }
}

export function createNotificationHub(connectionString: string, opts: NotificationHubOptions = {}): NotificationHub {
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeatTimeoutMs = opts.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const handlers = new Set<Handler>();
  /** Handlers whose `listen` has resolved: the ones a lost connection must tell (the others get the rejection). */
  const ready = new WeakSet<Handler>();
  let current: Connection | undefined;
  let closed = false;

  /** Every handler is dropped; those already listening are told why (the others get their `listen` rejected). */
  const dropHandlers = (why: Error) => {
    const all = [...handlers];
    handlers.clear();
    for (const h of all) if (ready.has(h)) safely(() => h.onLost(why));
  };

  /** `conn` is gone: if it is still the current one, its handlers are told and dropped; it is closed either way. */
  const lose = (conn: Connection, why: Error) => {
    void conn.client.then(destroyClient, () => undefined);
    if (current !== conn) return;
    current = undefined;
    dropHandlers(why);
  };

  const open = (): Connection => {
    const c = new Client({ connectionString, connectionTimeoutMillis: 5000 });
    const conn: Connection = { client: c.connect().then(() => c), listens: new Map(), holds: 0 };
    c.on('notification', (n) => {
      if (current !== conn) return;
      const memo = new NotificationMemo(n.payload ?? '');
      for (const h of handlers) if (h.channel === n.channel) safely(() => h.onPayload(memo.payload, memo));
    });
    c.on('error', () => undefined); // 'end' follows
    c.on('end', () => lose(conn, lostError()));
    conn.client.then(
      (x) =>
        heartbeat(x, {
          everyMs: heartbeatMs,
          timeoutMs: heartbeatTimeoutMs,
          watching: () => current === conn,
          onSilent: () => lose(conn, lostError()),
        }),
      () => undefined,
    );
    return conn;
  };

  /** The last handler or hold left: the connection closes (a later `listen` or `hold` opens a new one). */
  const releaseIfIdle = () => {
    const conn = current;
    if (handlers.size > 0 || !conn || conn.holds > 0) return;
    current = undefined;
    void conn.client.then(endSoon, () => undefined);
  };

  return {
    async listen(channel, onPayload, onLost) {
      if (closed) throw new Error('notification hub closed');
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      const handler: Handler = { channel, onPayload, onLost };
      handlers.add(handler);
      const conn = (current ??= open());
      try {
        const c = await conn.client;
        let listened = conn.listens.get(channel);
        if (!listened) {
          listened = c.query(`LISTEN ${channel}`);
          conn.listens.set(channel, listened);
        }
        await listened;
        // Lost (or released and replaced) while this handler waited: it never listened.
        if (!handlers.has(handler) || current !== conn) throw lostError();
      } catch (e) {
        handlers.delete(handler);
        lose(conn, e instanceof Error ? e : new Error(String(e)));
        throw e;
      }
      ready.add(handler);
      return () => {
        handlers.delete(handler);
        releaseIfIdle();
      };
    },
    async hold() {
      if (closed) throw new Error('notification hub closed');
      const conn = (current ??= open());
      conn.holds += 1;
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        conn.holds -= 1;
        if (current === conn) releaseIfIdle();
      };
      let c: Client;
      try {
        c = await conn.client;
        if (current !== conn) throw lostError();
      } catch (e) {
        release();
        lose(conn, e instanceof Error ? e : new Error(String(e)));
        throw e;
      }
      return {
        connection: conn,
        alive: () => current === conn,
        async query<R>(sql: string, params: unknown[]) {
          if (current !== conn) throw lostError();
          return (await c.query(sql, params)).rows as R[];
        },
        release,
      };
    },
    async close() {
      closed = true;
      const conn = current;
      current = undefined;
      dropHandlers(new Error('the live updates stopped (the service is shutting down); subscribe again'));
      if (conn) await conn.client.then(endSoon, () => undefined);
    },
  };
}
