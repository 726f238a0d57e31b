import pino from 'pino';
import WebSocket from 'ws';
import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { createUser } from '../support/factories';
import { liveHarness } from '../support/live';
import { waitFor } from '../reliability/fault-support';

/**
 * Subscriptions: limits per user and heartbeats on the WebSocket endpoint. A user holds at
 * most SUBSCRIPTION_CONNECTIONS_PER_USER (default 20) connections per instance, anonymous clients as many
 * per address; the server pings every SUBSCRIPTION_PING_INTERVAL_MS and drops sockets that went silent.
 */
const t = useTestApp();
const live = liveHarness();
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await live.disposeClients();
});
afterAll(() => live.closeServers());

interface RawClient {
  ws: WebSocket;
  /** True once connection_ack arrived, false if the socket closed first. */
  acked: Promise<boolean>;
  closed: Promise<{ code: number; reason: string; at: number }>;
  messages: { type: string }[];
  pings: number;
}

/** A bare graphql-transport-ws connection (connection_init only); `autoPong: false` plays a client that stopped answering. */
function open(url: string, token?: string, opts: { autoPong?: boolean } = {}): RawClient {
  const ws = new WebSocket(url, 'graphql-transport-ws', { autoPong: opts.autoPong ?? true });
  sockets.push(ws);
  const c: RawClient = {
    ws,
    acked: Promise.resolve(false),
    closed: Promise.resolve({ code: 0, reason: '', at: 0 }),
    messages: [],
    pings: 0,
  };
  c.closed = new Promise((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  c.acked = new Promise((resolve) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string };
      c.messages.push(m);
      if (m.type === 'connection_ack') resolve(true);
    });
    ws.on('close', () => resolve(false));
  });
  ws.on('ping', () => (c.pings += 1));
  ws.on('open', () =>
    ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { 'PRIVATE-TOKEN': token } : {} })),
  );
  ws.on('error', () => undefined);
  return c;
}

describe('connections per user', () => {
  it('refuses the 21st connection of a user (close 4429, reason), counts users apart, and frees a slot on close', async () => {
    const url = await live.serve(t.attach, t.app);
    const alice = await createUser(t, { username: 'alice' });
    const bob = await createUser(t, { username: 'bob' });
    const hers = Array.from({ length: 20 }, () => open(url, alice.token));
    expect(await Promise.all(hers.map((c) => c.acked))).toEqual(Array(20).fill(true));

    const extra = open(url, alice.token);
    expect(await extra.acked).toBe(false);
    expect(await extra.closed).toMatchObject({ code: 4429, reason: 'Too many connections for this user' });
    expect(await open(url, bob.token).acked).toBe(true);

    // A graphql-ws client (as Apollo's GraphQLWsLink) sees the close code and does not retry.
    const s = await live.subscribe(live.connect(url, alice.token), 'subscription { runnerChanged { id } }');
    await waitFor('refused', () => s.errors.length > 0, 5000);
    expect(s.errors[0]).toMatchObject({ code: 4429, reason: 'Too many connections for this user' });

    // One of hers closes: the slot is free again (the server counts on close, not on a timer).
    hers[0].ws.close(1000);
    await hers[0].closed;
    await waitFor('a slot freed', async () => open(url, alice.token).acked, 5000);
  });

  it('counts anonymous connections per client address', async () => {
    const url = await live.serve(t.attach, t.app);
    const anonymous = Array.from({ length: 20 }, () => open(url));
    expect(await Promise.all(anonymous.map((c) => c.acked))).toEqual(Array(20).fill(true));
    const extra = open(url);
    expect(await extra.closed).toMatchObject({ code: 4429, reason: 'Too many connections from this address' });
    expect(await open(url, ROOT_TOKEN).acked).toBe(true);
  });
});

describe('heartbeat', () => {
  it("terminates a socket that stops answering pings, keeps answering ones, and frees the silent one's slot", async () => {
    const env = { SUBSCRIPTION_PING_INTERVAL_MS: '200', SUBSCRIPTION_CONNECTIONS_PER_USER: '1' };
    const built = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: 'http://gitlab.test',
      secrets: TEST_SECRETS,
      modules: MODULES,
      env,
      background: false,
    });
    try {
      const url = await live.serve(built.attach, built.app);
      const silent = open(url, ROOT_TOKEN, { autoPong: false });
      expect(await silent.acked).toBe(true);
      const ackedAt = Date.now();
      const refused = open(url, ROOT_TOKEN);
      expect((await refused.closed).code).toBe(4429); // the limit of 1 is held by the silent socket

      // Pinged at the first tick, unanswered: terminated at the second (1006, no close frame).
      const gone = await silent.closed;
      expect(gone.code).toBe(1006);
      expect(silent.pings).toBeGreaterThanOrEqual(1);
      expect(gone.at - ackedAt).toBeLessThan(1000);

      // Its slot is free; a client that answers pings stays, and so does one that only sends protocol pings.
      const lively = open(url, ROOT_TOKEN);
      expect(await lively.acked).toBe(true);
      const chatty = open(url, undefined, { autoPong: false });
      expect(await chatty.acked).toBe(true);
      const timer = setInterval(() => chatty.ws.send(JSON.stringify({ type: 'ping' })), 100);
      await new Promise((r) => setTimeout(r, 1000));
      clearInterval(timer);
      expect([lively.ws.readyState, chatty.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
      expect(lively.pings).toBeGreaterThanOrEqual(3);
      expect(chatty.messages.filter((m) => m.type === 'pong').length).toBeGreaterThanOrEqual(5);
    } finally {
      await built.stop();
    }
  });
});
