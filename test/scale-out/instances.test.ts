import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { waitFor } from '../reliability/fault-support';
import { buildDist, freshDatabase, getOnce, spawnNode, type LogLine } from '../reliability/service-process';
import {
  client,
  describeWith,
  MAIN,
  startHaproxy,
  startInstance,
  startPgbouncer,
  type Instance,
  type Proxy,
} from './topology';

// Several instances of the service on one PostgreSQL (docs/scale-out.md).
jest.setTimeout(240_000);

beforeAll(() => buildDist());

const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;

async function count(url: string, sql: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(sql)).rows[0].n);
  } finally {
    await c.end();
  }
}

async function stopAll(list: (Instance | undefined)[]): Promise<void> {
  await Promise.all(list.map((i) => i?.dispose()));
}

/**
 * How a process ended, with its error-level lines (and stderr when it has no line): a failed
 * expectation shows why, not just the exit code.
 */
async function outcome(p: ReturnType<typeof spawnNode>) {
  const { code, signal } = await p.exited;
  const fatal = p.lines.filter((l) => l.level >= 50).map((l) => String(l.msg));
  return { code, signal, fatal: fatal.length > 0 ? fatal : [p.stderr()] };
}

// Beside a busy suite (two CPU hogs, the other jest worker), a first connection can take longer than
// the 2 s default; the start-up failure under test is the key check, not a connect timeout.
const SLOW_CONNECT = '15000';

const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
});

describe('instances starting on one database', () => {
  it('three started at the same moment on an empty database: one runs the migrations, all serve, one root user, one key check', async () => {
    const db = await freshDatabase('scaleout_start');
    let instances: Instance[] = [];
    try {
      instances = await Promise.all(['a', 'b', 'c'].map((n) => startInstance(n, { DATABASE_URL: db.url })));
      const applied = instances.flatMap((i) => i.proc.lines.filter(byMsg('applied database migrations')));
      expect(applied).toHaveLength(1);
      expect(instances.flatMap((i) => i.proc.lines.filter((l) => l.level >= 50))).toEqual([]);
      for (const i of instances) expect((await getOnce(i.port, '/-/readiness')).status).toBe(200);
      expect(await count(db.url, `select count(*) as n from users where username = 'root'`)).toBe(1);
      expect(await count(db.url, 'select count(*) as n from secrets_key_check')).toBe(1);
    } finally {
      await stopAll(instances);
      await db.drop();
    }
  });

  it('an instance with another key stops before serving, exit 2, one fatal line saying what to do', async () => {
    const db = await freshDatabase('scaleout_key');
    let first: Instance | undefined;
    try {
      first = await startInstance('first', { DATABASE_URL: db.url });
      // As README allowed before: no SECRETS_KEY, a DATA_DIR of its own (a key file is generated there).
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-second-'));
      cleanup.push(dataDir);
      const second = spawnNode(MAIN, {
        DATABASE_URL: db.url,
        PORT: '0',
        WORKERS: '1',
        SECRETS_KEY: '',
        DATA_DIR: dataDir,
        DB_CONNECT_TIMEOUT_MS: SLOW_CONNECT,
      });
      expect(await outcome(second)).toEqual({ code: 2, signal: null, fatal: [expect.any(String)] });
      const fatal = second.lines.filter((l) => l.level >= 50);
      expect(fatal[0].level).toBe(60);
      expect(fatal[0].msg).toContain(
        `secrets key check failed: the key file ${dataDir}/secrets.key is not the secrets key of this database`,
      );
      expect(fatal[0].msg).toContain('set SECRETS_KEY here');
      expect(second.lines.some((l) => l.msg === 'worker started' || String(l.msg).startsWith('listening'))).toBe(false);

      const third = spawnNode(MAIN, {
        DATABASE_URL: db.url,
        PORT: '0',
        WORKERS: '0',
        SECRETS_KEY: 'b'.repeat(64),
        DB_CONNECT_TIMEOUT_MS: SLOW_CONNECT,
      });
      expect(await outcome(third)).toEqual({
        code: 2,
        signal: null,
        fatal: [
          expect.stringContaining('secrets key check failed: SECRETS_KEY is not the secrets key of this database'),
        ],
      });
      // The first instance never saw anything of it.
      expect((await getOnce(first.port, '/-/readiness')).status).toBe(200);
    } finally {
      await stopAll([first]);
      await db.drop();
    }
  });
});

/** Changes through `a`, then the very next request on each of `others` sees it. Returns the worst delay in ms. */
async function changesPropagate(a: Instance, others: Instance[]): Promise<number> {
  const ca = client(a.port);
  const cs = others.map((o) => client(o.port));
  let worst = 0;
  const seenEverywhere = async (what: string, check: (c: ReturnType<typeof client>) => Promise<boolean>) => {
    const started = Date.now();
    for (const c of cs) {
      // The first read must already see it, as each read goes to PostgreSQL or to a cache invalidated
      // at commit (LISTEN/NOTIFY); a short wait is allowed only for the notification's trip.
      await waitFor(`${what} seen on another instance`, () => check(c), 2000);
    }
    worst = Math.max(worst, Date.now() - started);
  };
  try {
    const limit = 4242 + Math.floor(Math.random() * 1000);
    expect((await ca.call('PUT', `/api/v4/application/settings?default_projects_limit=${limit}`)).status).toBe(200);
    await seenEverywhere(
      'the setting',
      async (c) => (await c.call('GET', '/api/v4/application/settings')).body.default_projects_limit === limit,
    );

    expect((await ca.call('POST', '/api/v4/features/scale_out_flag', { value: 'true' })).status).toBe(201);
    await seenEverywhere('the feature flag', async (c) =>
      ((await c.call('GET', '/api/v4/features')).body as { name: string; state: string }[]).some(
        (f) => f.name === 'scale_out_flag' && f.state === 'on',
      ),
    );

    const message = (await ca.call('POST', '/api/v4/broadcast_messages', { message: `scale-out ${limit}` })).body as {
      id: number;
    };
    await seenEverywhere(
      'the broadcast message',
      async (c) => (await c.call('GET', `/api/v4/broadcast_messages/${message.id}`)).status === 200,
    );

    const registration = (await ca.call('GET', '/api/v4/application/settings')).body
      .runners_registration_token as string;
    const runner = (await ca.call('POST', '/api/v4/runners', { token: registration, description: `so-${limit}` }))
      .body as { id: number };
    expect((await ca.call('PUT', `/api/v4/runners/${runner.id}`, { active: false })).status).toBe(200);
    await seenEverywhere(
      'the paused runner',
      async (c) => (await c.call('GET', `/api/v4/runners/${runner.id}`)).body.active === false,
    );
  } finally {
    ca.close();
    for (const c of cs) c.close();
  }
  return worst;
}

interface LoadResult {
  requests: number;
  failures: { method: string; path: string; status: number; error?: string; body?: unknown }[];
  written: { id: number; path: string }[];
}

/** `workers` clients each sending a python-gitlab-like mix (lists, details, creates) until `until()` says stop. */
function mixedLoad(port: number, workers: number, tag: string) {
  const result: LoadResult = { requests: 0, failures: [], written: [] };
  let stop = false;
  const loop = async (w: number) => {
    const c = client(port);
    let i = 0;
    try {
      while (!stop) {
        i += 1;
        const step = i % 5;
        let r;
        let method = 'GET';
        let p = '/api/v4/groups?per_page=5';
        if (step === 1) p = '/api/v4/projects?per_page=5&simple=true';
        else if (step === 2) p = '/api/v4/runners/all';
        else if (step === 3) {
          method = 'POST';
          const groupPath = `${tag}-${w}-${i}`;
          p = '/api/v4/groups';
          r = await c.call(method, p, { name: groupPath, path: groupPath });
          if (r.status === 201) result.written.push({ id: r.body.id, path: groupPath });
        } else if (step === 4 && result.written.length > 0)
          p = `/api/v4/groups/${result.written[result.written.length - 1].id}`;
        if (!r) r = await c.call(method, p);
        result.requests += 1;
        if (r.status < 200 || r.status >= 300)
          result.failures.push({ method, path: p, status: r.status, error: r.error, body: r.body });
      }
    } finally {
      c.close();
    }
  };
  const running = Promise.all(Array.from({ length: workers }, (_, w) => loop(w)));
  return {
    result,
    async finish() {
      stop = true;
      await running;
      return result;
    },
  };
}

/** Restarts each instance in turn behind the proxy: SIGTERM (drain), exit, start, back in rotation. */
async function rollingRestart(instances: Instance[], proxy: Proxy): Promise<{ restartMs: number[] }> {
  const restartMs: number[] = [];
  for (const inst of instances) {
    const started = Date.now();
    const exit = await inst.stop('SIGTERM');
    if (exit.code !== 0)
      throw new Error(
        `${inst.name} exited ${JSON.stringify(exit)}:\n${inst.proc.lines
          .filter((l) => l.level >= 40 || /stop|drain|shut/.test(l.msg))
          .map((l) => JSON.stringify(l).slice(0, 400))
          .join('\n')}\n${inst.proc.stderr()}`,
      );
    await inst.restart();
    await waitFor(`${inst.name} back in rotation`, async () => (await proxy.upServers()).includes(inst.name), 20_000);
    restartMs.push(Date.now() - started);
  }
  return { restartMs };
}

async function readBack(port: number, written: { id: number; path: string }[]): Promise<number> {
  const c = client(port);
  let missing = 0;
  try {
    for (const w of written) {
      const r = await c.call('GET', `/api/v4/groups/${w.id}`);
      if (r.status !== 200 || r.body.path !== w.path) missing += 1;
    }
  } finally {
    c.close();
  }
  return missing;
}

/** Figures printed for docs/scale-out.md and the closing note. */
function report(what: string, figures: Record<string, unknown>): void {
  process.stdout.write(`scale-out ${what}: ${JSON.stringify(figures)}\n`);
}

const DRAIN = { SHUTDOWN_DRAIN_MS: '1500' };
/** Behind the balancer, as the example runs them: readiness checked on a monitoring port of their own. */
const MONITORED = { monitoring: true };
const backendOf = ({ name, port, monitoringPort }: Instance) => ({ name, port, monitoringPort });

describeWith(['haproxy'], 'three instances behind HAProxy', () => {
  it('a rolling restart under continuous mixed load: no failed request, no lost write; changes reach the other instances at once', async () => {
    const db = await freshDatabase('scaleout_lb');
    let instances: Instance[] = [];
    let proxy: Proxy | undefined;
    try {
      // One instance under the supervisor (npm start's default shape), two single-process.
      instances = [
        await startInstance('a', { DATABASE_URL: db.url, WORKERS: '1', ...DRAIN }, MONITORED),
        await startInstance('b', { DATABASE_URL: db.url, ...DRAIN }, MONITORED),
        await startInstance('c', { DATABASE_URL: db.url, ...DRAIN }, MONITORED),
      ];
      proxy = await startHaproxy(instances.map(backendOf));

      const propagationMs = await changesPropagate(instances[0], instances.slice(1));

      const load = mixedLoad(proxy.port, 4, 'lb');
      await new Promise((r) => setTimeout(r, 1000));
      const { restartMs } = await rollingRestart(instances, proxy);
      await new Promise((r) => setTimeout(r, 1000));
      const result = await load.finish();
      const lost = await readBack(instances[1].port, result.written);

      report('haproxy', {
        requests: result.requests,
        failures: result.failures.length,
        writes: result.written.length,
        lost,
        restartMs,
        propagationMs,
      });
      expect(result.failures).toEqual([]);
      expect(result.requests).toBeGreaterThan(100);
      expect(result.written.length).toBeGreaterThan(10);
      expect(lost).toBe(0);
    } finally {
      await proxy?.stop();
      await stopAll(instances);
      await db.drop();
    }
  });
});

describeWith(
  ['haproxy', 'pgbouncer'],
  'three instances behind HAProxy, through PgBouncer in transaction pooling mode',
  () => {
    it('serves, propagates changes (LISTEN on DATABASE_DIRECT_URL) and survives a rolling restart', async () => {
      const db = await freshDatabase('scaleout_pgb');
      let instances: Instance[] = [];
      let proxy: Proxy | undefined;
      const bouncer = await startPgbouncer(db.url);
      try {
        const env = { DATABASE_URL: bouncer.url, DATABASE_DIRECT_URL: db.url, ...DRAIN };
        instances = await Promise.all(['a', 'b', 'c'].map((n) => startInstance(n, env, MONITORED)));
        expect(instances.flatMap((i) => i.proc.lines.filter(byMsg('applied database migrations')))).toHaveLength(1);
        proxy = await startHaproxy(instances.map(backendOf));

        const propagationMs = await changesPropagate(instances[2], instances.slice(0, 2));
        const load = mixedLoad(proxy.port, 4, 'pgb');
        await new Promise((r) => setTimeout(r, 1000));
        const { restartMs } = await rollingRestart(instances, proxy);
        const result = await load.finish();
        const lost = await readBack(instances[0].port, result.written);

        report('pgbouncer', {
          requests: result.requests,
          failures: result.failures.length,
          writes: result.written.length,
          lost,
          restartMs,
          propagationMs,
        });
        expect(result.failures).toEqual([]);
        expect(lost).toBe(0);
        // The pools really went through PgBouncer (it logs each client login), which refused nothing.
        expect(bouncer.output()).toMatch(/login attempt: db=scaleout_pgb_\w+ user=/);
        expect(bouncer.output()).not.toMatch(/unsupported startup parameter|no more connections allowed/);
      } finally {
        await proxy?.stop();
        await stopAll(instances);
        await bouncer.stop();
        await db.drop();
      }
    });
  },
);

describe('SIGTERM with SHUTDOWN_DRAIN_MS', () => {
  it('answers readiness 503 at once, keeps serving requests during the drain, then exits 0', async () => {
    const db = await freshDatabase('scaleout_drain');
    let inst: Instance | undefined;
    try {
      inst = await startInstance('d', { DATABASE_URL: db.url, SHUTDOWN_DRAIN_MS: '1500' });
      const exited = (inst.proc.child.kill('SIGTERM'), inst.proc.exited);
      const t0 = Date.now();
      await inst.proc.line('draining', byMsg('draining: /-/readiness answers 503, requests are still served'));
      const ready = await getOnce(inst.port, '/-/readiness');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({
        status: 'failed',
        master_check: [{ status: 'failed', message: 'shutting down' }],
      });
      const served = await getOnce(inst.port, '/api/v4/groups');
      expect(served.status).toBe(200);
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1200);
    } finally {
      await stopAll([inst]);
      await db.drop();
    }
  });
});
