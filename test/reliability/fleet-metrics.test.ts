import http from 'node:http';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { listenMonitoring } from '../../src/ops/monitoring-server';
import { waitFor } from './fault-support';
import { ROOT_TOKEN, buildDist, getOnce, servingWorkers, startService, type LogLine } from './service-process';

// One view of an instance under the supervisor (docs/operations.md#metrics, #monitoring-port): a scrape
// shows every worker's figures labelled by worker slot, whichever worker or listener answers it.
jest.setTimeout(120_000);

beforeAll(() => buildDist());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of `name` in a Prometheus text exposition whose labels include `match`. */
function samples(text: string, name: string, match: Record<string, string> = {}): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(match).every(([k, v]) => labels[k] === v)) out.push({ name, labels, value: Number(m[3]) });
  }
  return out;
}

const total = (list: Sample[]) => list.reduce((sum, s) => sum + s.value, 0);
const workersOf = (list: Sample[]) => [...new Set(list.map((s) => s.labels.worker))].sort();
const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;

/** 20 requests, each on a new connection (the kernel hands each to one of the accepting workers). */
async function twentyRequests(port: number): Promise<void> {
  for (let i = 0; i < 20; i += 1)
    expect((await getOnce(port, '/api/v4/user', { 'private-token': ROOT_TOKEN })).status).toBe(200);
}

describe('npm start with two workers: metrics of the whole instance', () => {
  it('every scrape on the main port counts the requests of both workers, labelled by worker slot; a replacement keeps its slot', async () => {
    const { svc, port, drop } = await startService();
    try {
      await twentyRequests(port);
      for (let scrape = 0; scrape < 3; scrape += 1) {
        const { status, body } = await getOnce(port, '/-/metrics');
        expect(status).toBe(200);
        const requests = samples(body, 'http_requests_total', { route: 'GET /user' });
        expect(total(requests)).toBe(20);
        expect(workersOf(requests).every((w) => ['0', '1'].includes(w))).toBe(true);
        expect(total(samples(body, 'http_request_duration_seconds_count', { route: 'GET /user' }))).toBe(20);
        expect(total(samples(body, 'http_request_duration_seconds_bucket', { route: 'GET /user', le: '+Inf' }))).toBe(
          20,
        );
        expect(samples(body, 'db_up').map((s) => [s.labels.worker, s.value])).toEqual([
          ['0', 1],
          ['1', 1],
        ]);
        expect(workersOf(samples(body, 'process_resident_memory_bytes'))).toEqual(['0', '1', 'primary']);
      }

      // A worker killed and replaced: its replacement reports under the same slot, counting from zero.
      const [victim] = [...servingWorkers(svc).values()];
      process.kill(victim, 'SIGKILL');
      await waitFor(
        'the replacement listening',
        () => svc.lines.filter(byMsg('worker listening')).length === 3 && servingWorkers(svc).size === 2,
      );
      const after = (await getOnce(port, '/-/metrics')).body;
      expect(workersOf(samples(after, 'db_up'))).toEqual(['0', '1']);
      expect(total(samples(after, 'http_requests_total', { route: 'GET /user' }))).toBeLessThanOrEqual(20);
    } finally {
      svc.child.kill('SIGKILL');
      await drop();
    }
  });

  it('with MONITORING_PORT the primary answers the monitoring endpoints there, the main port does not, and readiness fails at once on SIGTERM', async () => {
    const monitoringPort = await freePort();
    const { svc, port, drop } = await startService({
      MONITORING_PORT: String(monitoringPort),
      SHUTDOWN_DRAIN_MS: '1500',
    });
    try {
      expect(svc.lines.some(byMsg(`monitoring endpoints on http://127.0.0.1:${monitoringPort}`))).toBe(true);
      for (const p of ['/-/health', '/-/liveness', '/-/readiness', '/-/metrics'])
        expect((await getOnce(port, p)).status).toBe(404);
      await twentyRequests(port);
      expect((await getOnce(monitoringPort, '/-/health')).body).toBe('GitLab OK');
      expect(JSON.parse((await getOnce(monitoringPort, '/-/liveness')).body)).toEqual({ status: 'ok' });
      const ready = await getOnce(monitoringPort, '/-/readiness');
      expect([ready.status, JSON.parse(ready.body)]).toEqual([200, { status: 'ok', master_check: [{ status: 'ok' }] }]);
      const body = (await getOnce(monitoringPort, '/-/metrics')).body;
      expect(total(samples(body, 'http_requests_total', { route: 'GET /user' }))).toBe(20);
      expect(workersOf(samples(body, 'db_up'))).toEqual(['0', '1']);

      svc.child.kill('SIGTERM');
      await svc.line('shutting down', (l) => String(l.msg).startsWith('shutting down'));
      const draining = await getOnce(monitoringPort, '/-/readiness');
      expect([draining.status, JSON.parse(draining.body)]).toEqual([
        503,
        { status: 'failed', master_check: [{ status: 'failed', message: 'shutting down' }] },
      ]);
      expect(await svc.exited).toEqual({ code: 0, signal: null });
    } finally {
      svc.child.kill('SIGKILL');
      await drop();
    }
  });
});

describe('the monitoring listener', () => {
  const handlers = {
    live: () => true,
    readiness: async () => ({ status: 200, body: { status: 'ok' } }),
    metrics: async () => 'up 1\n',
    contentType: 'text/plain; version=0.0.4; charset=utf-8',
  };
  const get = (port: number, p: string, method = 'GET') =>
    new Promise<number>((resolve, reject) =>
      http
        .request({ host: '127.0.0.1', port, path: p, method, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject)
        .end(),
    );

  it('answers only its four paths, only to GET and HEAD, only to MONITORING_WHITELIST', async () => {
    const open = await listenMonitoring('127.0.0.1', await freePort(), ['127.0.0.0/8'], handlers);
    const closed = await listenMonitoring('127.0.0.1', await freePort(), ['10.0.0.0/8'], handlers);
    try {
      expect(await get(open.port, '/-/metrics?x=1')).toBe(200);
      expect(await get(open.port, '/-/readiness', 'HEAD')).toBe(200);
      expect(await get(open.port, '/-/metrics', 'POST')).toBe(404);
      expect(await get(open.port, '/api/v4/user')).toBe(404);
      for (const p of ['/-/health', '/-/liveness', '/-/readiness', '/-/metrics'])
        expect(await get(closed.port, p)).toBe(404);
    } finally {
      await open.close();
      await closed.close();
    }
  });
});
