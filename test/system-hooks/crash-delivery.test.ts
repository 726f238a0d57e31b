import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../reliability/fault-support';
import { buildDist, freshDatabase } from '../reliability/service-process';
import { startInstance, TOKEN, type Instance } from '../scale-out/topology';

// A delivery in flight when the service is killed (kill -9) is sent again by the next
// instance on the database; nothing committed is lost. Real processes as `npm start` runs them.
jest.setTimeout(120_000);

beforeAll(() => buildDist());

interface Hit {
  uuid: string;
  body: Record<string, unknown>;
  answered: boolean;
}

function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { 'PRIVATE-TOKEN': TOKEN, ...(data ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('system hook delivery across a crash', () => {
  it('kill -9 while a delivery is in flight: another instance sends it again (same event UUID), then the rest, in order', async () => {
    const db = await freshDatabase('hooks_crash');
    const hits: Hit[] = [];
    let onFirst: (() => void) | undefined;
    // The first request is never answered (the service dies waiting); later ones get 200.
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hit = {
          uuid: String(req.headers['x-gitlab-event-uuid']),
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          answered: hits.length > 0,
        };
        hits.push(hit);
        if (!hit.answered) {
          onFirst?.();
          return;
        }
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const env = { DATABASE_URL: db.url, SYSTEM_HOOK_TIMEOUT_MS: '2000', SYSTEM_HOOK_RETRY_BASE_MS: '200' };
    let a: Instance | undefined;
    let b: Instance | undefined;
    try {
      a = await startInstance('a', env);
      expect(
        (await call(a.port, 'PUT', '/api/v4/application/settings', { allow_local_requests_from_system_hooks: true }))
          .status,
      ).toBe(200);
      expect((await call(a.port, 'POST', '/api/v4/hooks', { url })).status).toBe(201);
      const inFlight = new Promise<void>((r) => (onFirst = r));
      expect((await call(a.port, 'POST', '/api/v4/groups', { name: 'Crash', path: 'crash' })).status).toBe(201);
      await inFlight;
      a.proc.child.kill('SIGKILL');
      await a.proc.exited;
      // Committed while the first instance is gone: delivered after the first one, by the new instance.
      b = await startInstance('b', env);
      expect((await call(b.port, 'POST', '/api/v4/groups', { name: 'After', path: 'after' })).status).toBe(201);
      await waitFor('four answered deliveries', () => hits.filter((h) => h.answered).length >= 4, 60_000);
      const answered = hits.filter((h) => h.answered);
      expect(answered.map((h) => [h.body.event_name, h.body.name ?? h.body.group_name])).toEqual([
        ['group_create', 'Crash'],
        ['user_add_to_group', 'Crash'],
        ['group_create', 'After'],
        ['user_add_to_group', 'After'],
      ]);
      // The event whose delivery was cut is the one sent again, under its UUID.
      expect(answered[0].uuid).toBe(hits[0].uuid);
      expect(new Set(answered.map((h) => h.uuid)).size).toBe(4);
    } finally {
      await a?.dispose();
      await b?.dispose();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await db.drop();
    }
  });
});
