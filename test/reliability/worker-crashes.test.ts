import http from 'node:http';
import path from 'node:path';
import { waitFor } from './fault-support';
import {
  ROOT_TOKEN,
  buildDist,
  getOnce,
  servingWorkers,
  startService,
  type LogLine,
  type RunningProcess,
} from './service-process';

// A crash is not an outage (docs/operations.md#a-crash-is-not-an-outage): workers killed by requests, as real
// `npm start` processes (src/ops/supervisor.ts, src/ops/in-flight-requests.ts).
jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const DIED = 'worker died; forking its replacement';

beforeAll(() => buildDist());

describe('npm start: workers killed in a loop', () => {
  it('keeps the port answering an unrelated client while a serving worker is killed every second: nothing refused, failures only for requests in flight on a killed worker', async () => {
    const { svc, port, drop } = await startService();
    try {
      // The unrelated client: two callers, each one authenticated call at a time (at most every 50 ms).
      const outcomes: { ok: boolean; error?: string }[] = [];
      let calling = true;
      const caller = async () => {
        while (calling) {
          const started = Date.now();
          await getOnce(port, '/api/v4/user', { 'private-token': ROOT_TOKEN }, 30_000).then(
            (r) => outcomes.push(r.status === 200 ? { ok: true } : { ok: false, error: `status ${r.status}` }),
            (e: NodeJS.ErrnoException) => outcomes.push({ ok: false, error: e.code ?? e.message }),
          );
          await sleep(Math.max(0, 50 - (Date.now() - started)));
        }
      };
      const callers = [caller(), caller()];

      // A request of death every second, alternating SIGKILL and SIGABRT (what V8 raises at its heap
      // limit). It can only reach a worker that listens: with none listening, that round is skipped.
      const kills: { worker: number; signal: NodeJS.Signals }[] = [];
      for (const end = Date.now() + 12_000; Date.now() < end; await sleep(1000)) {
        const victim = [...servingWorkers(svc)].find(([id]) => !kills.some((k) => k.worker === id));
        if (!victim) continue;
        const signal: NodeJS.Signals = kills.length % 2 === 0 ? 'SIGKILL' : 'SIGABRT';
        process.kill(victim[1], signal);
        kills.push({ worker: victim[0], signal });
      }
      await waitFor('two workers serve again', () => servingWorkers(svc).size === 2, 60_000);
      calling = false;
      await Promise.all(callers);

      expect(kills.length).toBeGreaterThanOrEqual(3);
      for (const k of kills) {
        const died = await svc.line(`worker ${k.worker}'s death`, (l) => l.msg === DIED && l.worker === k.worker);
        expect(died).toMatchObject({ level: 50, signal: k.signal, inFlight: expect.any(Array) });
        expect(svc.lines.some((l) => l.msg === 'worker started' && l.replaces === k.worker)).toBe(true);
      }
      // Deaths of serving workers never wait for a back-off.
      expect(
        svc.lines.filter((l) => l.msg === 'workers keep failing to start: waiting before forking the replacement'),
      ).toEqual([]);

      // The port accepted every connection (the supervisor holds the socket while no worker listens);
      // a call fails only when its worker is killed under it: at most one per caller and kill.
      const failed = outcomes.filter((o) => !o.ok);
      expect(failed.filter((o) => o.error !== 'ECONNRESET' && o.error !== 'EPIPE')).toEqual([]);
      expect(failed.length).toBeLessThanOrEqual(2 * kills.length);
      expect(failed.length / outcomes.length).toBeLessThan(0.25);
      expect(outcomes.length).toBeGreaterThan(20);
      expect((await getOnce(port, '/-/liveness')).status).toBe(200);
    } finally {
      svc.child.kill('SIGKILL');
      await drop();
    }
  });
});

/** Sends a request and ignores how it ends (its worker dies under it). */
function sendAndForget(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): void {
  const req = http.request(
    { host: '127.0.0.1', port, method, path: urlPath, agent: false, headers: { connection: 'close', ...headers } },
    (res) => res.resume(),
  );
  req.on('error', () => undefined);
  req.end(body);
}

describe("npm start: the request that exhausted a worker's heap", () => {
  let svc: RunningProcess;
  let port: number;
  let drop: () => Promise<void>;
  let rootId: number;

  // A small heap (the last --max-old-space-size wins) and the test-only preload that makes a marked request exhaust it.
  beforeAll(async () => {
    ({ svc, port, drop } = await startService({}, [
      '--max-old-space-size=256',
      '-r',
      path.join(__dirname, 'fixtures/exhaust-heap.js'),
    ]));
    rootId = (JSON.parse((await getOnce(port, '/api/v4/user', { 'private-token': ROOT_TOKEN })).body) as { id: number })
      .id;
  });
  afterAll(async () => {
    svc.child.kill('SIGKILL');
    await drop();
  });

  const deathOf = async (reqId: string): Promise<LogLine> => {
    const died = await svc.line(
      `the death of the worker serving ${reqId}`,
      (l) => l.msg === DIED && JSON.stringify(l.inFlight).includes(reqId),
      60_000,
    );
    await svc.line(
      'its replacement listens',
      (l) =>
        l.msg === 'worker listening' && l.sinceDeathMs !== undefined && Date.parse(l.time) >= Date.parse(died.time),
    );
    return died;
  };

  it('is logged by the primary with its route, user and path when the heap filled while the event loop still turned', async () => {
    sendAndForget(port, 'GET', `/api/v4/user?private_token=${ROOT_TOKEN}`, {
      'x-request-id': 'crash-gradual-1',
      'x-test-exhaust-heap': 'gradual',
    });
    const died = await deathOf('crash-gradual-1');
    expect(died).toMatchObject({
      level: 50,
      code: null,
      signal: 'SIGABRT',
      servedMs: expect.any(Number),
      heap: { usedMb: expect.any(Number), limitMb: expect.any(Number) },
    });
    expect(died.inFlight).toEqual([
      {
        reqId: 'crash-gradual-1',
        method: 'GET',
        path: '/api/v4/user',
        route: 'GET /user',
        userId: rootId,
        ip: '127.0.0.1',
        bytes: 0,
        why: 'heap',
        ageMs: expect.any(Number),
      },
    ]);
    expect(svc.stderr()).toContain('JavaScript heap out of memory');
    expect(JSON.stringify(svc.lines)).not.toContain(ROOT_TOKEN);
  });

  it('is logged by the primary with its size and user when a large body exhausted the heap in one synchronous step', async () => {
    const body = JSON.stringify({ message: 'x'.repeat(70_000) });
    sendAndForget(
      port,
      'POST',
      '/api/v4/broadcast_messages',
      {
        'private-token': ROOT_TOKEN,
        'content-type': 'application/json',
        'x-request-id': 'crash-at-once-1',
        'x-test-exhaust-heap': 'at-once',
      },
      body,
    );
    const died = await deathOf('crash-at-once-1');
    expect(died).toMatchObject({ level: 50, signal: 'SIGABRT' });
    expect(died.inFlight).toEqual([
      expect.objectContaining({
        reqId: 'crash-at-once-1',
        method: 'POST',
        path: '/api/v4/broadcast_messages',
        userId: rootId,
        bytes: Buffer.byteLength(body),
        why: 'large',
      }),
    ]);
    expect(JSON.stringify(svc.lines)).not.toContain(ROOT_TOKEN);
  });
});
