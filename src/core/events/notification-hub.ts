import { Client } from 'pg';

/**
 * PostgreSQL notifications for live subscribers (GraphQL subscriptions, README "Live updates"): one
 * LISTEN connection per instance, opened when the first handler arrives and closed with the last, shared
 * by every channel. Writers NOTIFY on their own transaction, so a handler hears of a change only once it
 * committed, on every instance. When the connection is lost every handler is told (`onLost`) and
 * dropped: notifications in between may be missed, so subscribers end with an error and resubscribe.
 */
export interface NotificationHub {
  /** Calls `onPayload` for each notification on `channel`; resolves once listening. Returns the unsubscribe. */
  listen(channel: string, onPayload: (payload: string) => void, onLost: (why: Error) => void): Promise<() => void>;
  close(): Promise<void>;
}

interface Handler {
  channel: string;
  onPayload: (payload: string) => void;
  onLost: (why: Error) => void;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export function createNotificationHub(connectionString: string): NotificationHub {
  const handlers = new Set<Handler>();
  const listening = new Set<string>();
  let client: Promise<Client> | undefined;
  let closed = false;

  const lose = (why: Error) => {
    const all = [...handlers];
    handlers.clear();
    listening.clear();
    client = undefined;
    for (const h of all) h.onLost(why);
  };

  const connect = (): Promise<Client> => {
    const c = new Client({ connectionString, connectionTimeoutMillis: 5000 });
    c.on('notification', (n) => {
      for (const h of handlers) if (h.channel === n.channel) h.onPayload(n.payload ?? '');
    });
    c.on('error', () => undefined); // 'end' follows
    c.on('end', () => {
      if (client && !closed) lose(new Error('the live updates connection to the database was lost; subscribe again'));
    });
    return c.connect().then(() => c);
  };

  const release = async () => {
    if (handlers.size > 0 || !client) return;
    const c = client;
    client = undefined;
    listening.clear();
    await c.then((x) => x.end()).catch(() => undefined);
  };

  return {
    async listen(channel, onPayload, onLost) {
      if (closed) throw new Error('notification hub closed');
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      const handler: Handler = { channel, onPayload, onLost };
      handlers.add(handler);
      try {
        client ??= connect();
        const c = await client;
        if (!listening.has(channel)) {
          listening.add(channel);
          await c.query(`LISTEN ${channel}`);
        }
      } catch (e) {
        handlers.delete(handler);
        client = undefined;
        listening.clear();
        throw e;
      }
      return () => {
        handlers.delete(handler);
        void release();
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      const c = client;
      client = undefined;
      if (c) await c.then((x) => x.end()).catch(() => undefined);
    },
  };
}
