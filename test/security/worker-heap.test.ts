import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import { syntheticGpgKey } from '../support/gpg-keys';
import {
  DIST,
  buildDist,
  freshDatabase,
  spawnNode,
  type LogLine,
  type RunningProcess,
} from '../reliability/service-process';

/**
 * The largest answers an ordinary user can ask for, against `npm start` as it runs (one worker, its
 * 384 MB heap): the user stores all the GPG and SSH keys they may (maximum sizes), then a seeded
 * fuzzer builds queries from the lists they may read (aliases, page sizes, fields, node lookups)
 * and sends them, the largest accepted ones several at once. Every answer is 200 or 400, the worker
 * is the same process at the end, and its peak resident memory is reported (docs/security.md,
 * "Response size").
 */
jest.setTimeout(240_000);

const MAIN = path.join(DIST, 'main.js');
const ROOT = 'worker-heap-root-token-0123456789';
const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;

/** A deterministic generator, so that a failure is repeatable (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function sshKey(comment: string): string {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const blob = Buffer.concat([
    Buffer.from([0, 0, 0, 11]),
    Buffer.from('ssh-ed25519'),
    Buffer.from([0, 0, 0, 32]),
    raw,
  ]).toString('base64');
  return `ssh-ed25519 ${blob} ${comment}`;
}

/** One request on its own connection (no keep-alive: an idle pooled socket the server closes is not a failure of the service). */
function call(
  port: number,
  token: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method,
        agent: false,
        headers: {
          'private-token': token,
          'content-type': 'application/json',
          connection: 'close',
          ...(payload ? { 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Peak resident set (VmHWM) of a process, in MB. */
function peakRssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

describe('npm start under the largest answers an ordinary user can build', () => {
  let svc: RunningProcess;
  let port = 0;
  let drop: () => Promise<void> = async () => {};
  let token = '';
  let gpgIds: string[] = [];

  beforeAll(async () => {
    buildDist();
    const db = await freshDatabase('worker_heap');
    drop = db.drop;
    port = await freePort();
    svc = spawnNode(MAIN, { DATABASE_URL: db.url, PORT: String(port), WORKERS: '1', INITIAL_ROOT_TOKEN: ROOT });
    await svc.line('listening', byMsg(`listening on http://127.0.0.1:${port} with 1 worker`), 90_000);
    const user = JSON.parse(
      (
        await call(port, ROOT, 'POST', '/api/v4/users', {
          username: 'heap',
          name: 'Heap',
          email: 'heap@example.com',
          password: 'password-123',
        })
      ).text,
    ) as { id: number };
    const issued = await call(port, ROOT, 'POST', `/api/v4/users/${user.id}/impersonation_tokens`, {
      name: 'fuzz',
      scopes: ['api'],
    });
    token = (JSON.parse(issued.text) as { token: string }).token;
    // Every GPG key the user may have, each as long as allowed; SSH keys at the 5,000-character maximum.
    for (let i = 0; i < 100; i += 1)
      expect((await call(port, token, 'POST', '/api/v4/user/gpg_keys', { key: syntheticGpgKey(65_300) })).status).toBe(
        201,
      );
    const over = await call(port, token, 'POST', '/api/v4/user/gpg_keys', { key: syntheticGpgKey(600) });
    expect(over.status).toBe(400);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      await pg.query(
        `insert into keys (user_id, title, key, fingerprint, created_at, updated_at)
        select $1, 'k' || i, 'ssh-ed25519 AAAA ' || repeat('c', 4980) || i, md5('heap' || i::text), now(), now() from generate_series(1, 999) i`,
        [user.id],
      );
    } finally {
      await pg.end();
    }
    expect(
      (await call(port, token, 'POST', '/api/v4/user/keys', { title: 'last', key: sshKey('c'.repeat(4_000)) })).status,
    ).toBe(201);
    const ids = await call(port, token, 'POST', '/graphql', {
      query: '{ currentUser { gpgKeys(first: 100) { nodes { id } } } }',
    });
    gpgIds = (
      JSON.parse(ids.text) as { data: { currentUser: { gpgKeys: { nodes: { id: string }[] } } } }
    ).data.currentUser.gpgKeys.nodes.map((n) => n.id);
    expect(gpgIds).toHaveLength(100);
  });

  afterAll(async () => {
    // A worker that died says which requests it had in flight (docs/operations.md#a-crash-is-not-an-outage).
    const died = svc?.lines.filter((l) => String(l.msg).startsWith('worker died')) ?? [];
    if (died.length) process.stdout.write(`worker-heap: ${JSON.stringify(died)}\n`);
    svc?.child.kill('SIGTERM');
    await svc?.exited;
    await drop();
  });

  it('answers every fuzzed query with 200 or 400, the largest several at once, in the same worker', async () => {
    const worker = await svc.line('worker listening', byMsg('worker listening'));
    const workerPid = worker.pid as number;
    const random = seeded(34);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const lists = [
      (a: string, n: number) => `${a}: currentUser { gpgKeys(first: ${n}) { nodes { id key fingerprint } } }`,
      (a: string, n: number) => `${a}: currentUser { gpgKeys(first: ${n}) { edges { node { key } } } }`,
      (a: string, n: number) => `${a}: currentUser { gpgKeys(first: ${n}) { nodes { id } } }`,
      (a: string, n: number) => `${a}: currentUser { sshKeys(first: ${n}) { nodes { key title } } }`,
      (a: string, n: number) => `${a}: nodes(ids: ${JSON.stringify(gpgIds.slice(0, n))}) { ... on GpgKey { key } }`,
      (a: string) => `${a}: currentUser { username }`,
    ];
    // The hostile request: 100 aliases of a page of keys with their text.
    const audit = await call(port, token, 'POST', '/graphql', {
      query: `{ currentUser { ${Array.from({ length: 100 }, (_, i) => `a${i}: gpgKeys(first: 100) { nodes { key } }`).join(' ')} } }`,
    });
    expect(audit.status).toBe(400);

    const accepted: { query: string; bytes: number }[] = [];
    const statuses = new Map<number, number>();
    for (let round = 0; round < 60; round += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 14) }, (_, i) =>
        pick(lists)(`f${i}`, pick([1, 5, 20, 50, 100, 1000])),
      );
      const query = `{ ${parts.join(' ')} }`;
      const res = await call(port, token, 'POST', '/graphql', { query });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect([200, 400]).toContain(res.status);
      expect(res.text).not.toContain('INTERNAL_SERVER_ERROR');
      if (res.status === 200) accepted.push({ query, bytes: res.text.length });
    }
    // The largest answer the limits let through, built on purpose: a full page of GPG keys with their text,
    // and SSH keys with theirs in what is left of the complexity.
    const largest =
      '{ currentUser { a: gpgKeys(first: 100) { nodes { key } } b: sshKeys(first: 100) { nodes { key } } c: sshKeys(last: 50) { nodes { key } } } }';
    const one = await call(port, token, 'POST', '/graphql', { query: largest });
    expect(one.status).toBe(200);
    accepted.push({ query: largest, bytes: one.text.length });
    accepted.sort((x, y) => y.bytes - x.bytes);
    // Sixteen of the largest GraphQL answers and sixteen full REST pages of GPG keys at once, three times over.
    for (let wave = 0; wave < 3; wave += 1) {
      const answers = await Promise.all(
        Array.from({ length: 32 }, (_, i) =>
          i % 2
            ? call(port, token, 'GET', '/api/v4/user/gpg_keys?per_page=100')
            : call(port, token, 'POST', '/graphql', { query: accepted[i % Math.min(3, accepted.length)].query }),
        ),
      );
      // 503 is the pool's answer when every connection stays busy past its wait (docs/operations.md#timeouts-and-outages).
      for (const a of answers) expect([200, 503]).toContain(a.status);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(16);
    }
    expect((await call(port, token, 'GET', '/-/liveness')).status).toBe(200);
    expect(svc.lines.filter(byMsg('worker listening')).map((l) => l.pid)).toEqual([workerPid]);
    const peak = peakRssMb(workerPid);
    process.stdout.write(
      `worker-heap: ${statuses.get(200) ?? 0} fuzzed queries answered 200, ${statuses.get(400) ?? 0} 400; largest answer ${(accepted[0].bytes / 1e6).toFixed(1)} MB; worker peak RSS ${peak} MB\n`,
    );
    // The heap is capped at 384 MB old space (a worker past it aborts: the same-pid check above); resident
    // memory adds the young generation (up to 3 × 32 MB semi-spaces), code and buffers.
    expect(peak).toBeLessThan(640);
  });
});
