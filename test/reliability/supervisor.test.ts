import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { waitFor } from './fault-support';
import {
  DIST,
  MAIN,
  ROOT_TOKEN as TOKEN,
  buildDist,
  connectionOwner,
  freshDatabase,
  getOnce,
  isRunning,
  spawnNode,
  startService,
  type LogLine,
  type RunningProcess,
} from './service-process';

// `npm start` as real processes: the supervisor's primary (src/ops/cluster-primary.ts) and its
// workers (docs/operations.md#process-supervision-and-uncaught-errors). Each test starts its own service on a free port.
jest.setTimeout(120_000);

const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;
const ms = (l: LogLine) => Date.parse(l.time);

beforeAll(() => buildDist());

/** worker id → pid, from the primary's "worker listening" lines. */
function listeningWorkers(svc: RunningProcess): Map<number, number> {
  return new Map(svc.lines.filter(byMsg('worker listening')).map((l) => [l.worker as number, l.pid as number]));
}

/** POST /graphql whose body is sent in two halves: in flight until `finish()` sends the rest. */
function slowRequest(port: number) {
  const body = JSON.stringify({ query: '{ __typename }' });
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (c) => (answer += c.toString('utf8')));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    async start() {
      await opened;
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
      );
    },
    finish: () => socket.write(body.slice(5)),
    closed,
  };
}

describe('npm start: the supervisor', () => {
  it('replaces a worker killed with SIGKILL while the port keeps answering and in-flight requests of the other worker finish; SIGTERM stops everything with 0', async () => {
    const { svc, port, drop } = await startService();
    try {
      const workers = listeningWorkers(svc);
      expect(workers.size).toBe(2);

      // /-/liveness every 50 ms, each on a new connection, from before the kill until the replacement listens.
      // The kill happens between two polls: a poll in flight on the killed worker would be lost with it.
      const failures: string[] = [];
      let polls = 0;
      let polling = true;
      let betweenPolls: (() => void) | undefined;
      const poller = (async () => {
        while (polling) {
          const started = Date.now();
          await getOnce(port, '/-/liveness').then(
            (r) => (r.status === 200 ? undefined : failures.push(`status ${r.status}`)),
            (e: Error) => failures.push(e.message),
          );
          polls += 1;
          betweenPolls?.();
          betweenPolls = undefined;
          await new Promise((r) => setTimeout(r, Math.max(0, 50 - (Date.now() - started))));
        }
      })();

      // A request in flight on one worker (found through /proc), then SIGKILL to the other.
      const pids = [...workers.values()];
      const slow = slowRequest(port);
      await slow.start();
      let holder: number | undefined;
      await waitFor(
        'the connection reaches a worker',
        () => (holder = connectionOwner(port, slow.socket.localPort!, pids)) !== undefined,
        5000,
      );
      const [victimId, victimPid] = [...workers].find(([, pid]) => pid !== holder)!;
      await new Promise<void>(
        (resolve) =>
          (betweenPolls = () => {
            process.kill(victimPid, 'SIGKILL');
            resolve();
          }),
      );

      const died = await svc.line(
        'the death is noticed',
        (l) => l.msg === 'worker died; forking its replacement' && l.worker === victimId,
      );
      expect(died).toMatchObject({ level: 50, pid: victimPid, signal: 'SIGKILL' });
      const forked = await svc.line(
        'a replacement is forked',
        (l) => l.msg === 'worker started' && l.replaces === victimId,
      );
      const listening = await svc.line(
        'the replacement listens',
        (l) => l.msg === 'worker listening' && l.worker === forked.worker,
        30_000,
      );
      expect(ms(forked) - ms(died)).toBeLessThan(1000);
      expect(listening.sinceDeathMs).toEqual(expect.any(Number));

      // The other worker's in-flight request completes normally.
      slow.finish();
      const answer = await slow.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).toContain('{"data":{"__typename":"Query"}}');

      polling = false;
      await poller;
      expect(failures).toEqual([]);
      expect(polls).toBeGreaterThan(10);
      expect(svc.child.exitCode).toBeNull();
      expect(isRunning(holder!)).toBe(true);

      svc.child.kill('SIGTERM');
      expect(await svc.exited).toEqual({ code: 0, signal: null });
      const all = [...listeningWorkers(svc).values()];
      expect(all.filter(isRunning)).toEqual([]);
      expect(svc.lines.filter(byMsg('worker stopped')).map((l) => l.code)).toEqual([0, 0]);
    } finally {
      svc.child.kill('SIGKILL');
      await drop();
    }
  });

  it('logs an uncaught exception in a worker with its request, lets that request finish and forks the replacement at once; a rejection only logs', async () => {
    const port = await freePort();
    const svc = spawnNode(path.join(__dirname, 'fixtures/crash-worker.js'), { PORT: String(port), DIST_DIR: DIST });
    try {
      await waitFor('both workers listen', () => svc.lines.filter(byMsg('worker listening')).length === 2);

      const rejected = await getOnce(port, '/reject?private_token=glpat-needle', { 'x-request-id': 'req-reject-1' });
      expect(rejected).toEqual({ status: 200, body: 'ok' });
      const rejection = await svc.line('the rejection is logged', (l) => l.reqId === 'req-reject-1');
      expect(rejection).toMatchObject({
        level: 50,
        msg: 'unhandled promise rejection; the process keeps serving',
        method: 'GET',
        path: '/reject',
        err: { type: 'Error', message: 'rejected with nobody listening' },
      });

      const crashed = await getOnce(port, '/throw?private_token=glpat-needle', { 'x-request-id': 'req-crash-1' });
      expect(crashed).toEqual({ status: 200, body: 'answered during the grace' });
      const fatal = await svc.line('the exception is logged', (l) => l.reqId === 'req-crash-1');
      expect(fatal).toMatchObject({
        level: 60,
        method: 'GET',
        path: '/throw',
        origin: 'uncaughtException',
        err: { type: 'Error', message: 'thrown in a timer callback' },
      });
      expect((fatal.err as { stack: string }).stack).toContain('crash-worker.js');

      const forked = await svc.line(
        'a replacement is forked',
        (l) => l.msg === 'worker started' && l.replaces === fatal.worker,
      );
      const exited = await svc.line(
        'the crashed worker exits 1',
        (l) => l.msg === 'worker exited (its replacement was already forked)' && l.worker === fatal.worker,
      );
      expect(exited.code).toBe(1);
      expect(ms(forked)).toBeLessThanOrEqual(ms(exited));
      await svc.line('the replacement listens', (l) => l.msg === 'worker listening' && l.worker === forked.worker);
      expect(exited.level).toBe(40);
      expect(svc.lines.filter((l) => l.level >= 50)).toEqual([rejection, fatal]);
      expect(JSON.stringify(svc.lines)).not.toContain('glpat-needle');

      svc.child.kill('SIGTERM');
      expect(await svc.exited).toEqual({ code: 0, signal: null });
    } finally {
      svc.child.kill('SIGKILL');
    }
  });
});

describe('npm start: start-up failures stop the primary without forking again', () => {
  it('exits 2 on a bad WORKERS value, with one line and no worker', async () => {
    const svc = spawnNode(MAIN, { WORKERS: 'many', PORT: String(await freePort()) });
    expect(await svc.exited).toEqual({ code: 2, signal: null });
    expect(svc.stderr()).toBe(
      'configuration error: WORKERS must be an integer from 0 to 64 (0: one process without a supervisor), got "many"\n',
    );
    expect(svc.lines).toEqual([]);
  });

  it('exits 2 on a wrong module setting, naming each wrong variable (they fell back to their defaults before)', async () => {
    const svc = spawnNode(MAIN, {
      WORKERS: '2',
      PORT: String(await freePort()),
      PAGES_HOST: 'pages example',
      SYSTEM_HOOK_TIMEOUT_MS: '10s',
    });
    expect(await svc.exited).toEqual({ code: 2, signal: null });
    expect(svc.stderr()).toBe(
      'configuration error: PAGES_HOST must be a host name such as pages.example.com, got "pages example"; SYSTEM_HOOK_TIMEOUT_MS must be a whole number greater than 0, got "10s"\n',
    );
    expect(svc.lines).toEqual([]);
  });

  it('exits 1 with one fatal line when the database is unreachable, before forking', async () => {
    const svc = spawnNode(MAIN, {
      WORKERS: '2',
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://nobody:x@127.0.0.1:${await freePort()}/none`,
      DB_CONNECT_TIMEOUT_MS: '500',
    });
    expect(await svc.exited).toEqual({ code: 1, signal: null });
    expect(svc.lines.filter((l) => l.level === 60).map((l) => l.msg)).toEqual([
      expect.stringMatching(/^database start-up failed: .*; check that DATABASE_URL points to a reachable PostgreSQL/),
    ]);
    expect(svc.lines.filter(byMsg('worker started'))).toEqual([]);
  });

  it('exits 1 with one fatal line when the port is in use, before the database is touched or a worker forked', async () => {
    const db = await freshDatabase('supervisor');
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const svc = spawnNode(MAIN, { WORKERS: '2', PORT: String(port), DATABASE_URL: db.url });
      expect(await svc.exited).toEqual({ code: 1, signal: null });
      expect(svc.lines.map((l) => [l.level, l.msg])).toEqual([
        [
          60,
          `cannot listen on 127.0.0.1:${port}: bind EADDRINUSE: address already in use 127.0.0.1:${port}; set PORT or HOST`,
        ],
      ]);
    } finally {
      blocker.close();
      await db.drop();
    }
  });
});

describe('npm start without DATABASE_URL', () => {
  /** Postmasters of this data directory (backends show as `postgres: …`, the postmaster with `-D <dir>`). */
  // A backend forked at the moment of the scan still shows the postmaster's command line until it
  // sets its own title, so a process counts as a postmaster only when its parent is not one.
  const postmasters = (pgDir: string) => {
    const withDir = fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').includes(`-D ${pgDir} `);
        } catch {
          return false;
        }
      });
    const parentOf = (p: string) => {
      try {
        return fs
          .readFileSync(`/proc/${p}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ')[1];
      } catch {
        return undefined;
      }
    };
    return withDir.filter((p) => !withDir.includes(parentOf(p) ?? ''));
  };

  it('starts one embedded PostgreSQL in the primary, shared by the workers, and stops it after them', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-supervisor-'));
    fs.chmodSync(dataDir, 0o755);
    const port = await freePort();
    const svc = spawnNode(MAIN, {
      DATA_DIR: dataDir,
      PORT: String(port),
      WORKERS: '2',
      INITIAL_ROOT_TOKEN: TOKEN,
      DATABASE_URL: '',
    });
    try {
      await svc.line('all workers listening', byMsg(`listening on http://127.0.0.1:${port} with 2 workers`), 90_000);
      expect(postmasters(path.join(dataDir, 'postgres'))).toHaveLength(1);
      expect(svc.lines.filter((l) => l.msg === 'applied database migrations')).toHaveLength(1);
      expect(
        svc.lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('embedded PostgreSQL listening')),
      ).toHaveLength(1);
      expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(true);
      for (let i = 0; i < 4; i += 1) {
        expect((await getOnce(port, '/api/v4/user', { 'private-token': TOKEN })).status).toBe(200);
      }
      svc.child.kill('SIGTERM');
      expect(await svc.exited).toEqual({ code: 0, signal: null });
      expect(postmasters(path.join(dataDir, 'postgres'))).toEqual([]);
      const order = svc.lines.map((l) => l.msg);
      expect(order.lastIndexOf('worker stopped')).toBeLessThan(order.lastIndexOf('stopped'));
    } finally {
      svc.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
