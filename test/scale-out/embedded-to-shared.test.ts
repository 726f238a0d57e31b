import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { buildDist, DIST, freshDatabase, ROOT, spawnNode, type LogLine } from '../reliability/service-process';
import { client, MAIN, TOKEN } from './topology';

// From one instance on the embedded PostgreSQL to a shared PostgreSQL (docs/operations.md#moving-to-a-shared-postgresql):
// the embedded port pinned with EMBEDDED_PG_PORT, `npm run db:copy-embedded`, then an instance on the copy.
jest.setTimeout(180_000);

beforeAll(() => buildDist());

const COPY = path.join(DIST, 'cli/copy-embedded.js');
const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;

function copyCommand(target: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [COPY, target], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', SECRETS_KEY: '', ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function rowCount(url: string, table: string): Promise<number> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query(`select count(*) as n from ${table}`)).rows[0].n);
  } finally {
    await c.end();
  }
}

describe('moving from the embedded PostgreSQL to a shared one', () => {
  it('pins the embedded port, copies everything into the shared database, and an instance there serves the same data and tokens', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-embedded-'));
    fs.chmodSync(dataDir, 0o755);
    const target = await freshDatabase('scaleout_copy');
    const pgPort = await freePort();
    const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) };
    const port = await freePort();
    const embedded = spawnNode(MAIN, {
      ...env,
      PORT: String(port),
      WORKERS: '0',
      DATABASE_URL: '',
      SECRETS_KEY: '',
      INITIAL_ROOT_TOKEN: TOKEN,
    });
    let shared: ReturnType<typeof spawnNode> | undefined;
    try {
      await embedded.line('listening', byMsg(`listening on http://127.0.0.1:${port}`), 90_000);
      expect(
        embedded.lines.some((l) => l.msg.startsWith(`embedded PostgreSQL listening on 127.0.0.1:${pgPort} `)),
      ).toBe(true);

      // Rows that reference each other (user ↔ namespace, group ↔ subgroup), a sealed runner token, a token digest.
      const c = client(port);
      const group = (await c.call('POST', '/api/v4/groups', { name: 'move', path: 'move' })).body;
      const sub = (await c.call('POST', '/api/v4/groups', { name: 'sub', path: 'sub', parent_id: group.id })).body;
      const project = (await c.call('POST', '/api/v4/projects', { name: 'p', namespace_id: sub.id })).body;
      const user = (
        await c.call('POST', '/api/v4/users', {
          email: 'mover@example.com',
          username: 'mover',
          name: 'Mover',
          password: 'a-long-password-123',
        })
      ).body;
      const pat = (
        await c.call('POST', `/api/v4/users/${user.id}/impersonation_tokens`, { name: 'copy', scopes: ['api'] })
      ).body;
      const registration = (await c.call('GET', '/api/v4/application/settings')).body.runners_registration_token;
      const runner = (await c.call('POST', '/api/v4/runners', { token: registration, description: 'moved' })).body;
      c.close();
      expect([group.id, sub.id, project.id, user.id, pat.token, runner.token].every(Boolean)).toBe(true);

      const refused = copyCommand(target.url, env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('stop it first');

      embedded.child.kill('SIGTERM');
      expect(await embedded.exited).toEqual({ code: 0, signal: null });

      const t0 = Date.now();
      const copied = copyCommand(target.url, env);
      process.stdout.write(`scale-out copy: ${Date.now() - t0} ms\n${copied.stdout}`);
      expect({ status: copied.status, stderr: copied.stderr }).toEqual({ status: 0, stderr: '' });
      expect(copied.stdout).toMatch(/^copied \d+ rows of \d+ tables and \d+ sequences$/m);
      expect(copied.stdout).toContain(`SECRETS_KEY set to the 64 hex characters in ${dataDir}/secrets.key`);
      expect(await rowCount(target.url, 'namespaces')).toBeGreaterThanOrEqual(4);

      const again = copyCommand(target.url, env);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('the target database already has users');

      const sharedPort = await freePort();
      shared = spawnNode(MAIN, {
        DATABASE_URL: target.url,
        SECRETS_KEY: fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim(),
        PORT: String(sharedPort),
        WORKERS: '0',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'so-shared-')),
      });
      await shared.line('listening', byMsg(`listening on http://127.0.0.1:${sharedPort}`), 60_000);
      const s = client(sharedPort);
      try {
        expect((await s.call('GET', '/api/v4/groups/move%2Fsub')).body.id).toBe(sub.id);
        expect((await s.call('GET', `/api/v4/projects/${project.id}`)).body.path_with_namespace).toBe('move/sub/p');
        const asUser = await s.call('GET', '/api/v4/user', undefined, { 'PRIVATE-TOKEN': pat.token });
        expect(asUser.body.username).toBe('mover');
        expect((await s.call('POST', '/api/v4/runners/verify', { token: runner.token })).status).toBe(200);
        expect((await s.call('GET', `/api/v4/runners/${runner.id}`)).body.description).toBe('moved');
        // Sequences go on from the copied ids.
        const next = await s.call('POST', '/api/v4/groups', { name: 'after', path: 'after' });
        expect(next.status).toBe(201);
        expect(next.body.id).toBeGreaterThan(sub.id);
      } finally {
        s.close();
      }
    } finally {
      embedded.child.kill('SIGKILL');
      shared?.child.kill('SIGTERM');
      if (shared) await shared.exited;
      await target.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a pinned port in use stops the start with exit 1 and says so', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'so-pinned-'));
    fs.chmodSync(dataDir, 0o755);
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const pgPort = (taken.address() as net.AddressInfo).port;
    try {
      const svc = spawnNode(MAIN, {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        PORT: String(await freePort()),
        WORKERS: '0',
        DATABASE_URL: '',
      });
      expect(await svc.exited).toEqual({ code: 1, signal: null });
      expect(svc.lines.find((l) => l.level === 60)?.msg).toContain(
        `EMBEDDED_PG_PORT ${pgPort} is in use on 127.0.0.1 by another program`,
      );
    } finally {
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
