import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { ensureRootUser } from '../../src/modules/tokens/root-user';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { openDatabase, type Database } from '../../src/core/db/database';
import { createLogger } from '../../src/core/logger';
import { signalCluster, waitFor } from './fault-support';
import { TEST_SECRETS } from '../support/test-app';

// Its own embedded PostgreSQL (durable settings, like production) in a private 0700 directory,
// opened exactly as main.ts does; the shared test cluster is not touched.
const TOKEN = 'fault-suite-root-token-0123456789';
const UNAVAILABLE = { message: '503 Service Unavailable' };

let dir: string;
let db: Database | undefined;
let app: Express;
let stopApp: () => Promise<void>;
const fatal: string[] = [];
const paused = new Set<number>();
/** Unexpected errors the service logged: shown when a status assertion fails. */
const unexpected: string[] = [];

interface WriteResult {
  path: string;
  status: number;
}

function createGroup(n: string): Promise<WriteResult> {
  return request(app)
    .post('/api/v4/groups')
    .set('PRIVATE-TOKEN', TOKEN)
    .send({ name: n, path: n })
    .then(
      (r) => ({ path: n, status: r.status }),
      () => ({ path: n, status: 0 }),
    );
}

function writes(prefix: string, count: number): Promise<WriteResult>[] {
  return Array.from({ length: count }, (_, i) => createGroup(`${prefix}-${i}`));
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-faults-'));
  const config = loadConfig({
    DATA_DIR: dir,
    DB_STATEMENT_TIMEOUT_MS: '2000',
    DB_POOL_ACQUIRE_TIMEOUT_MS: '2000',
    DB_CONNECT_TIMEOUT_MS: '1500',
    DB_PROBE_INTERVAL_MS: '200',
  });
  const logger = createLogger('warn', {
    write: (line: string) => {
      if (line.includes('"msg":"unexpected error"')) unexpected.push(line);
      if (process.env.TEST_LOG_LEVEL) process.stderr.write(line);
    },
  });
  db = await openDatabase(config, logger, ormModelOf(MODULES), { onFatal: (m) => fatal.push(m), restartAttempts: 3 });
  await ensureRootUser(db.orm.em.fork(), TOKEN, logger);
  ({ app, stop: stopApp } = await buildApp({
    orm: db.orm,
    logger,
    externalUrl: 'http://gitlab.test',
    health: db.health,
    secrets: TEST_SECRETS,
    modules: MODULES,
  }));
}, 60000);

afterAll(async () => {
  // Never leave a stopped or orphaned server behind, whatever failed above.
  const pid = db?.embeddedPid();
  if (pid) for (const p of paused) signalCluster(p, 'SIGCONT');
  await stopApp?.();
  await db?.close();
  if (pid) signalCluster(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
}, 30000);

describe('embedded PostgreSQL as the service runs it', () => {
  it('connects as a non-superuser role that owns the database', async () => {
    const rows = await db!.orm.em.getConnection().execute<{ rolsuper: boolean; owner: string; me: string }[]>(
      `select r.rolsuper, pg_get_userbyid(d.datdba) as owner, current_user as me
         from pg_roles r, pg_database d where r.rolname = current_user and d.datname = current_database()`,
    );
    expect(rows).toEqual([{ rolsuper: false, owner: 'gitlab_app', me: 'gitlab_app' }]);
  });

  it('keeps its data under DATA_DIR', () => {
    expect(fs.existsSync(path.join(dir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(fs.statSync(path.join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
  });
});

describe('database faults under concurrent writes', () => {
  const results: WriteResult[] = [];

  it('answers 503 on REST, SERVICE_UNAVAILABLE on GraphQL and a generic readiness while PostgreSQL is stopped', async () => {
    results.push(...(await Promise.all(writes('before', 5))));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);

    const pid = db!.embeddedPid()!;
    paused.add(pid);
    const inFlight = writes('stopped', 8);
    signalCluster(pid, 'SIGSTOP');
    await waitFor('the health probe to notice', () => !db!.health.available());

    const rest = await request(app).get('/api/v4/groups').set('PRIVATE-TOKEN', TOKEN);
    expect(rest.status).toBe(503);
    expect(rest.body).toEqual(UNAVAILABLE);
    const write = await createGroup('during-stop');
    expect(write.status).toBe(503);
    const gql = await request(app)
      .post('/graphql')
      .set('PRIVATE-TOKEN', TOKEN)
      .send({ query: '{ groups { nodes { id } } }' });
    expect(gql.status).toBe(503);
    expect(gql.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'SERVICE_UNAVAILABLE',
    ]);
    const ready = await request(app).get('/-/readiness');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'failed',
      master_check: [{ status: 'failed', message: 'database unavailable' }],
    });
    expect((await request(app).get('/-/liveness')).status).toBe(200);

    signalCluster(pid, 'SIGCONT');
    paused.delete(pid);
    const settled = await Promise.all(inFlight);
    results.push(...settled, write);
    await waitFor('the database to be reachable again', () => db!.health.available());
    expect({
      statuses: [...new Set(settled.map((r) => r.status))].filter((s) => s !== 201 && s !== 503),
      unexpected,
    }).toEqual({ statuses: [], unexpected: [] });
    expect((await request(app).get('/-/readiness')).status).toBe(200);
    results.push(...(await Promise.all(writes('after-stop', 3))));
    expect(results.slice(-3).map((r) => r.status)).toEqual([201, 201, 201]);
  }, 40000);

  it('restarts a killed postmaster on the same data directory and recovers without a manual restart', async () => {
    const pid = db!.embeddedPid()!;
    const inFlight = writes('killed', 10);
    await new Promise((r) => setImmediate(r));
    process.kill(pid, 'SIGKILL');
    const settled = await Promise.all(inFlight);
    results.push(...settled);
    await waitFor('a new postmaster', () => db!.embeddedPid() !== undefined && db!.embeddedPid() !== pid);
    await waitFor(
      'the database to be reachable again',
      async () => (await request(app).get('/-/readiness')).status === 200,
    );
    expect({
      statuses: [...new Set(settled.map((r) => r.status))].filter((s) => s !== 201 && s !== 503),
      unexpected,
    }).toEqual({ statuses: [], unexpected: [] });
    results.push(...(await Promise.all(writes('after-kill', 3))));
    expect(results.slice(-3).map((r) => r.status)).toEqual([201, 201, 201]);
    expect((await request(app).get('/-/liveness')).status).toBe(200);
    expect(fatal).toEqual([]);
  }, 40000);

  it('kept every write answered 201 and applied none of the others halfway', async () => {
    const rows = await db!.orm.em.getConnection().execute<{ path: string; owners: number; traversal: number[] }[]>(
      `select n.path, (select count(*)::int from group_members m where m.group_id = n.id and m.access_level = 50) as owners, n.traversal_ids as traversal
         from namespaces n where n.kind = 'group'`,
    );
    const stored = new Map(rows.map((r) => [r.path, r]));
    for (const r of results.filter((w) => w.status === 201)) expect(stored.has(r.path)).toBe(true);
    for (const row of rows) {
      expect(row.owners).toBe(1);
      expect(row.traversal.length).toBe(1);
    }
    // Writes answered 503 either committed entirely (the commit reached the server) or not at all.
    const known = new Set(results.map((r) => r.path));
    for (const row of rows) expect(known.has(row.path)).toBe(true);
  });

  it('fails liveness and reports once when PostgreSQL cannot be restarted', async () => {
    const pid = db!.embeddedPid()!;
    fs.renameSync(path.join(dir, 'postgres', 'PG_VERSION'), path.join(dir, 'postgres', 'PG_VERSION.moved'));
    try {
      process.kill(pid, 'SIGKILL');
      await waitFor('the supervisor to give up', () => fatal.length > 0);
    } finally {
      fs.renameSync(path.join(dir, 'postgres', 'PG_VERSION.moved'), path.join(dir, 'postgres', 'PG_VERSION'));
    }
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(
      /^embedded PostgreSQL died and could not be restarted after 3 attempts \(.+\); check .+postgres and its log above, then restart the service$/,
    );
    const live = await request(app).get('/-/liveness');
    expect(live.status).toBe(503);
    expect(live.body).toEqual({ status: 'failed' });
  }, 40000);
});
