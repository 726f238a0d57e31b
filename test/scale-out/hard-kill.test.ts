import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { waitFor } from '../reliability/fault-support';
import { buildDist, freshDatabase, getOnce, type RunningProcess } from '../reliability/service-process';
import {
  client,
  describeWith,
  HAPROXY_EXAMPLE,
  startHaproxy,
  startInstance,
  type Instance,
  type Proxy,
} from './topology';

// The HAProxy example (deploy/haproxy.cfg, docs/scale-out.md#rolling-restarts-and-haproxy) when an instance dies without
// warning under writes: it may retry what never reached the service and reads, never a write.
jest.setTimeout(120_000);

beforeAll(() => buildDist());

/** Holds the answers of the writes below after they committed, so that the kill finds some in that state. */
const HOLD = path.join(__dirname, '../reliability/fixtures/hold-answers.js');
const HOLD_HEADER = { 'x-test-hold-answer-ms': '150' };
const CLIENTS = 8;

/** The balancer could not get an answer: the write may or may not have committed. */
const UNKNOWN = new Set([0, 502, 503, 504]);

interface Outcome {
  path: string;
  status: number;
  error?: string;
  body?: unknown;
}

const heldNow = (proc: RunningProcess) =>
  proc.lines.filter((l) => l.msg === 'test: answer held').length -
  proc.lines.filter((l) => l.msg === 'test: answer released').length;

async function storedPaths(url: string): Promise<string[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const rows = (await c.query<{ path: string }>(`select path from namespaces where path like 'hk-%'`)).rows;
    return rows.map((r) => r.path).sort();
  } finally {
    await c.end();
  }
}

describe('the HAProxy example', () => {
  it('is the configuration docs/scale-out.md shows', () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/scale-out.md'), 'utf8');
    const block = /```haproxy\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(fs.readFileSync(HAPROXY_EXAMPLE, 'utf8'));
  });
});

describeWith(['haproxy'], 'the HAProxy example when an instance is killed under writes', () => {
  it('replays no write: every acknowledged write is stored, and every stored write was acknowledged or answered 502, never an error', async () => {
    const db = await freshDatabase('scaleout_kill');
    const instances: Instance[] = [];
    let proxy: Proxy | undefined;
    try {
      // `a` as npm start runs it (supervisor and one worker), `b` as one process.
      const opts = { nodeArgs: ['-r', HOLD], monitoring: true };
      instances.push(await startInstance('a', { DATABASE_URL: db.url, WORKERS: '1' }, opts));
      instances.push(await startInstance('b', { DATABASE_URL: db.url }, opts));
      const [a, b] = instances;
      proxy = await startHaproxy(instances.map(({ name, port, monitoringPort }) => ({ name, port, monitoringPort })));
      // The monitoring endpoints are on each instance's monitoring port, never through the balancer.
      for (const p of ['/-/metrics', '/-/readiness']) expect((await getOnce(proxy.port, p)).status).toBe(404);
      for (const i of instances) expect((await getOnce(i.monitoringPort!, '/-/metrics')).status).toBe(200);

      const writes: Outcome[] = [];
      const reads: Outcome[] = [];
      let stop = false;
      const port = proxy.port;
      const loop = async (w: number) => {
        const c = client(port);
        try {
          for (let i = 1; !stop; i += 1) {
            const p = `hk-${w}-${i}`;
            const r = await c.call('POST', '/api/v4/groups', { name: p, path: p }, HOLD_HEADER);
            writes.push({ path: p, status: r.status, error: r.error, ...(r.status === 201 ? {} : { body: r.body }) });
            const g = await c.call('GET', '/api/v4/groups?per_page=2');
            reads.push({ path: 'GET /api/v4/groups', status: g.status, error: g.error });
          }
        } finally {
          c.close();
        }
      };
      const running = Promise.all(Array.from({ length: CLIENTS }, (_, w) => loop(w)));

      // SIGKILL to the whole instance (primary and worker) while it holds answers of committed writes.
      await waitFor('load on both instances', () => writes.length >= 40, 30_000);
      await waitFor('instance a holds committed answers', () => heldNow(a.proc) >= 2, 10_000);
      const workerPids = a.proc.lines.filter((l) => l.msg === 'worker listening').map((l) => l.pid as number);
      for (const pid of [a.proc.child.pid!, ...workerPids]) process.kill(pid, 'SIGKILL');
      const killedAt = writes.length;
      await waitFor('haproxy takes a out', async () => !(await proxy!.upServers()).includes('a'), 10_000);
      await waitFor('writes go on through b', () => writes.length >= killedAt + 40, 30_000);
      stop = true;
      await running;

      // What a careful client does with a 502 to a write: read before retrying.
      const unknown = writes.filter((w) => UNKNOWN.has(w.status));
      const check = client(b.port);
      const confirmed: string[] = [];
      try {
        for (const w of unknown) {
          const r = await check.call('GET', `/api/v4/groups/${w.path}`);
          if (r.status === 200) confirmed.push(w.path);
          else expect(r.status).toBe(404);
        }
      } finally {
        check.close();
      }
      const acknowledged = writes.filter((w) => w.status === 201).map((w) => w.path);
      const stored = await storedPaths(db.url);
      process.stdout.write(
        `scale-out hard kill: ${JSON.stringify({
          writes: writes.length,
          acknowledged: acknowledged.length,
          unknown: unknown.length,
          unknownButStored: confirmed.length,
          stored: stored.length,
          reads: reads.length,
        })}\n`,
      );

      // A replayed write would answer 400 "has already been taken" for a stored group.
      expect(writes.filter((w) => w.status !== 201 && !UNKNOWN.has(w.status))).toEqual([]);
      // Reads that died with a are retried on b.
      expect(reads.filter((r) => r.status !== 200)).toEqual([]);
      expect(stored).toEqual([...acknowledged, ...confirmed].sort());
      // The kill did catch writes that had committed and were not answered yet.
      expect(confirmed.length).toBeGreaterThan(0);
    } finally {
      await proxy?.stop();
      await Promise.all(instances.map((i) => i.dispose()));
      await db.drop();
    }
  });
});
