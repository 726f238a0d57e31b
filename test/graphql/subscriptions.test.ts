import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { waitFor } from '../reliability/fault-support';

/**
 * Live updates over GraphQL subscriptions (WebSocket,
 * graphql-transport-ws as Apollo Client's GraphQLWsLink speaks it), fed by the audit events' commit
 * notifications, each subscriber seeing only what it may read.
 */
const t = useTestApp();
const servers: http.Server[] = [];
const clients: Client[] = [];

async function serve(attach: (s: http.Server) => void, app: http.RequestListener): Promise<string> {
  const server = http.createServer(app);
  attach(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

function connect(url: string, token?: string): Client {
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: token ? { 'PRIVATE-TOKEN': token } : {},
  });
  clients.push(client);
  return client;
}

interface Stream {
  events: Record<string, unknown>[];
  errors: unknown[];
  done: boolean;
  stop(): void;
}

/** Subscribes and resolves once the server has the subscription running (a first commit is then seen). */
async function subscribe(client: Client, query: string): Promise<Stream> {
  const s: Stream = { events: [], errors: [], done: false, stop: () => undefined };
  s.stop = client.subscribe(
    { query },
    {
      next: (r) => (r.errors ? s.errors.push(...r.errors) : s.events.push(r.data as Record<string, unknown>)),
      error: (e) => s.errors.push(e),
      complete: () => (s.done = true),
    },
  );
  // The LISTEN is up once the server answered the subscribe; a short settle is enough on loopback.
  await new Promise((r) => setTimeout(r, 300));
  return s;
}

afterEach(async () => {
  for (const c of clients.splice(0)) await c.dispose();
});
afterAll(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const EVENTS =
  'subscription { auditEventAdded { entityType entityId details { add remove change targetType targetDetails authorName } } }';

describe('Subscription.auditEventAdded', () => {
  it('streams each audit event to an administrator as its change commits', async () => {
    const url = await serve(t.attach, t.app);
    const s = await subscribe(connect(url, ROOT_TOKEN), EVENTS);
    await api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').send({ message: 'Live!' }).expect(201);
    await waitFor('the event', () => s.events.length >= 1, 10000);
    expect(s.events[0]).toEqual({
      auditEventAdded: {
        entityType: 'Gitlab::Audit::InstanceScope',
        entityId: 1,
        details: {
          add: 'broadcast_message',
          remove: null,
          change: null,
          targetType: 'BroadcastMessage',
          targetDetails: 'Live!',
          authorName: 'Administrator',
        },
      },
    });
    expect(s.errors).toEqual([]);
  });

  it('gives other users only the events of groups they own, and filters by entity', async () => {
    const url = await serve(t.attach, t.app);
    const alice = await createUser(t, { username: 'alice' });
    const mine = await createGroup(t, { path: 'alices' });
    const other = await createGroup(t, { path: 'others' });
    await addGroupMember(t, mine, alice, 50);
    const all = await subscribe(connect(url, alice.token), EVENTS);
    const filtered = await subscribe(
      connect(url, ROOT_TOKEN),
      `subscription { auditEventAdded(entityType: "Group", entityId: ${other.id}) { entityId details { change to } } }`,
    );
    await api(t, ROOT_TOKEN).put('/api/v4/application/settings').send({ default_projects_limit: 5 }).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${other.id}`).send({ description: 'not hers' }).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${mine.id}`).send({ description: 'hers' }).expect(200);
    await waitFor('her group event', () => all.events.length >= 1, 10000);
    await new Promise((r) => setTimeout(r, 300));
    expect(all.events.map((e) => (e.auditEventAdded as { entityId: number }).entityId)).toEqual([mine.id]);
    expect(filtered.events).toEqual([
      { auditEventAdded: { entityId: other.id, details: { change: 'description', to: 'not hers' } } },
    ]);
  });

  it('ends with SERVICE_UNAVAILABLE and the reason when the notification connection is lost; a new subscription works', async () => {
    const url = await serve(t.attach, t.app);
    const s = await subscribe(connect(url, ROOT_TOKEN), EVENTS);
    const conn = t.orm.em.getConnection();
    // This worker's database only: the run's other test files (other jest workers) listen on the same server.
    // The hub's session: its last statement was the LISTEN, or it holds the subscription's slot (an advisory lock).
    const listeners =
      (await conn.execute(`select distinct a.pid from pg_stat_activity a left join pg_locks l on l.pid = a.pid and l.locktype = 'advisory'
      where a.datname = current_database() and (a.query = 'LISTEN audit_events' or l.pid is not null)`)) as {
        pid: number;
      }[];
    expect(listeners.length).toBeGreaterThan(0);
    for (const l of listeners) await conn.execute('select pg_terminate_backend(?)', [l.pid]);
    await waitFor('the error', () => s.errors.length >= 1, 10000);
    // graphql-ws hands the error message's errors to `error` as one array
    expect(s.errors).toEqual([
      [
        {
          message: 'the live updates connection to the database was lost; subscribe again',
          extensions: { code: 'SERVICE_UNAVAILABLE' },
        },
      ],
    ]);
    const again = await subscribe(connect(url, ROOT_TOKEN), EVENTS);
    await api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').send({ message: 'After the loss' }).expect(201);
    await waitFor('the event', () => again.events.length >= 1, 10000);
    expect(again.events).toHaveLength(1);
    expect(again.errors).toEqual([]);
  });

  it('reaches subscribers of another instance on the same database', async () => {
    const second = await t.secondInstance();
    const url = await serve(second.attach, second.app);
    const s = await subscribe(connect(url, ROOT_TOKEN), EVENTS);
    await api(t, ROOT_TOKEN).post('/api/v4/broadcast_messages').send({ message: 'From the first' }).expect(201);
    await waitFor('the event on the second instance', () => s.events.length >= 1, 10000);
    expect((s.events[0].auditEventAdded as { details: { targetDetails: string } }).details.targetDetails).toBe(
      'From the first',
    );
    await second.close();
  });

  it('ends a subscription whose user is blocked meanwhile, at its next event', async () => {
    const url = await serve(t.attach, t.app);
    const bob = await createUser(t, { username: 'bob' });
    const g = await createGroup(t, { path: 'bobs' });
    await addGroupMember(t, g, bob, 50);
    const s = await subscribe(connect(url, bob.token), EVENTS);
    await t.orm.em.getConnection().execute(`update users set state = 'blocked' where id = ?`, [bob.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ description: 'after the block' }).expect(200);
    await waitFor('the subscription ended', () => s.errors.length > 0 || s.done, 10000);
    expect(s.events).toEqual([]);
    expect(JSON.stringify(s.errors)).toContain('UNAUTHENTICATED');
  });
});

describe('what the WebSocket endpoint refuses', () => {
  it('anonymous subscriptions (UNAUTHENTICATED), unknown tokens (close 4403), queries and mutations, too many subscriptions', async () => {
    const url = await serve(t.attach, t.app);
    const anonymous = await subscribe(connect(url), EVENTS);
    await waitFor('refused', () => anonymous.errors.length > 0, 5000);
    expect(JSON.stringify(anonymous.errors)).toContain('UNAUTHENTICATED');

    const bad = await subscribe(connect(url, 'not-a-token-0123456789'), EVENTS);
    await waitFor('closed', () => bad.errors.length > 0, 5000);
    expect((bad.errors[0] as { code?: number }).code).toBe(4403);

    const query = await subscribe(connect(url, ROOT_TOKEN), '{ currentUser { username } }');
    await waitFor('refused', () => query.errors.length > 0, 5000);
    expect(JSON.stringify(query.errors)).toContain('Only subscriptions are served over WebSocket');

    const client = connect(url, ROOT_TOKEN);
    const many = await Promise.all(Array.from({ length: 11 }, () => subscribe(client, EVENTS)));
    expect(
      many.filter((m) => JSON.stringify(m.errors).includes('At most 10 subscriptions per connection')),
    ).toHaveLength(1);

    const overHttp = await api(t, ROOT_TOKEN).post('/graphql').send({ query: EVENTS });
    expect(overHttp.status).toBe(400);
    expect(overHttp.body.errors[0].message).toContain('Subscriptions are served over WebSocket');
  });

  it('refuses upgrades on other paths and from origins outside CORS_ORIGINS', async () => {
    const url = await serve(t.attach, t.app);
    const status = (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url.replace('/graphql', path), 'graphql-transport-ws', { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => undefined);
      });
    expect(await status('/api/v4/groups')).toBe(404);
    expect(await status('/graphql')).toBe(101);
    expect(await status('/api/graphql', { Origin: 'https://dashboard.example' })).toBe(101); // CORS_ORIGINS default '*'

    // CORS_ORIGINS as a list: a browser page from another origin cannot open the socket.
    const listed = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: 'http://gitlab.test',
      secrets: TEST_SECRETS,
      modules: MODULES,
      corsOrigins: ['https://dash.example'],
      background: false,
    });
    try {
      const url2 = await serve(listed.attach, listed.app);
      const status2 = (headers: Record<string, string>) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(url2, 'graphql-transport-ws', { headers });
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('open', () => {
            ws.close();
            resolve(101);
          });
          ws.on('error', () => undefined);
        });
      expect(await status2({ Origin: 'https://evil.example' })).toBe(403);
      expect(await status2({ Origin: 'https://dash.example' })).toBe(101);
      expect(await status2({})).toBe(101); // not a browser
    } finally {
      await listed.stop();
    }
  });
});
