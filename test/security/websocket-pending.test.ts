import crypto from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';
import { liveHarness } from '../support/live';
import { waitFor } from '../reliability/fault-support';

/**
 * WebSocket upgrades that never send `connection_init` (docs/graphql.md#subscriptions-live-updates, limits): they are pending
 * until acknowledged, bounded per client address (SUBSCRIPTION_PENDING_PER_ADDRESS) and apart from the
 * acknowledged connections, and terminated (no closing handshake to wait for) when they sent nothing
 * within 5 s. A flood of them from one address does not keep another client out.
 */
const t = useTestApp({ reset: 'once' });
const live = liveHarness();
const raws: net.Socket[] = [];
const sockets: WebSocket[] = [];
afterEach(() => {
  for (const s of raws.splice(0)) s.destroy();
  for (const ws of sockets.splice(0)) ws.terminate();
});
afterAll(() => live.closeServers());

interface RawUpgrade {
  /** The HTTP status of the upgrade's answer (101 when upgraded). */
  status: number;
  /** Date.now() at the answer, and when the server ended the TCP connection. */
  answeredAt: number;
  ended: Promise<number>;
  /** Bytes after the 101 answer (a WebSocket close frame starts with 0x88). */
  after: () => Buffer;
}

/** A bare TCP client from `from` that upgrades to graphql-transport-ws and then says nothing, reads nothing back. */
function rawUpgrade(port: number, from: string): Promise<RawUpgrade> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
    raws.push(socket);
    let head = Buffer.alloc(0);
    let answered: RawUpgrade | undefined;
    let rest = Buffer.alloc(0);
    const ended = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      if (answered) {
        rest = Buffer.concat([rest, chunk]);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      answered = {
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head.toString('latin1'))?.[1] ?? 0),
        answeredAt: Date.now(),
        ended,
        after: () => rest,
      };
      rest = head.subarray(end + 4);
      resolve(answered);
    });
    socket.once('close', () => answered || reject(new Error('closed before an answer')));
    socket.write(
      [
        'GET /graphql HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Protocol: graphql-transport-ws',
        '',
        '',
      ].join('\r\n'),
    );
  });
}

/** A graphql-transport-ws client that sends connection_init at once; resolves true on connection_ack. */
function acknowledged(url: string, token: string): Promise<boolean> {
  const ws = new WebSocket(url, 'graphql-transport-ws');
  sockets.push(ws);
  return new Promise((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'PRIVATE-TOKEN': token } })));
    ws.on(
      'message',
      (data) => (JSON.parse(String(data)) as { type: string }).type === 'connection_ack' && resolve(true),
    );
    ws.on('close', () => resolve(false));
    ws.on('unexpected-response', () => resolve(false));
    ws.on('error', () => resolve(false));
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('upgrades that never initialise', () => {
  it("a flood from one address (more than the instance's 1,000 connections) does not keep a client from another address out", async () => {
    const url = await live.serve(t.attach, t.app);
    const answers: RawUpgrade[] = [];
    for (let batch = 0; batch < 11; batch += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 100 }, () => rawUpgrade(portOf(url), '127.0.0.2')))));
    }
    const started = Date.now();
    expect(await acknowledged(url, ROOT_TOKEN)).toBe(true);
    console.log(`acknowledged under a flood of ${answers.length} upgrades: ${Date.now() - started} ms`);

    // Only a few of the flood are let in (pending); the others are refused before any WebSocket exists.
    const upgraded = answers.filter((a) => a.status === 101);
    expect(upgraded.length).toBeLessThanOrEqual(20);
    expect(answers.filter((a) => a.status === 429).length).toBe(answers.length - upgraded.length);
  });

  it("terminates a socket that sent nothing at the init deadline, without a closing handshake, and frees its address's room", async () => {
    const url = await live.serve(t.attach, t.app);
    const silent = await rawUpgrade(portOf(url), '127.0.0.3');
    expect(silent.status).toBe(101);
    let timer: NodeJS.Timeout | undefined;
    const endedAt = await Promise.race([
      silent.ended,
      new Promise<number>((r) => (timer = setTimeout(() => r(0), 15_000))),
    ]);
    clearTimeout(timer);
    expect(endedAt).toBeGreaterThan(0); // a graceful close would hold it 30 s more
    expect(endedAt - silent.answeredAt).toBeGreaterThanOrEqual(4500); // not before its 5 s
    expect([...silent.after()]).not.toContain(0x88); // no close frame: terminated
    // Its address may upgrade again.
    await waitFor('upgraded again', async () => (await rawUpgrade(portOf(url), '127.0.0.3')).status === 101, 5000);
  });
});
