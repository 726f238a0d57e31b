import 'reflect-metadata';
import { Client } from 'pg';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { buildApp } from '../../src/app';
import { createAppServer } from '../../src/core/runtime';
import {
  ctxFactory,
  type AppEnv,
  type Clock,
  type CurrentUser,
  type RandomInt,
} from '../../src/core/context/request-ctx';
import { secretBox } from '../../src/core/crypto/secret-box';
import { uncachedSharedCache, type SharedCache } from '../../src/core/db/shared-cache';
import { initOrm, migrate, type Orm } from '../../src/core/db/orm';
import { loaderFactory, ormModelOf, type SeedEnv } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { ensureRootUser } from '../../src/modules/tokens/root-user';
import { throttleConfig } from '../../src/modules/application-settings/throttles';
import { featureFlags } from '../../src/modules/features/feature.service';

export const ROOT_TOKEN = 'root-test-token-0123456789';
export const EXTERNAL_URL = 'http://gitlab.test';
/** A fixed secrets key for the tests (production: SECRETS_KEY or DATA_DIR/secrets.key). */
export const TEST_SECRETS = secretBox(Buffer.alloc(32, 7));

function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One database per jest worker on the run's PostgreSQL, created and migrated on first use. */
async function ensureDatabase(): Promise<string> {
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error('TEST_PG_URL is not set: run the tests through jest (globalSetup starts PostgreSQL)');
  const name = `app_test_${process.env.JEST_WORKER_ID ?? '1'}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  } catch (e) {
    if ((e as { code?: string }).code !== '42P04') throw e; // created concurrently
  } finally {
    await admin.end();
  }
  return databaseUrl(base, name);
}

export interface TestApp {
  app: Express;
  /** `app` listening on an ephemeral port for the file's life: `api()` sends here (no listen and close per request). */
  server: Server;
  orm: Orm;
  /** The app's shared cache (core/db/shared-cache): wait on `cache.events` 'invalidated'. */
  cache: SharedCache;
  /** Serves GraphQL subscriptions on `server`'s WebSocket upgrades (BuiltApp.attach). */
  attach(server: import('node:http').Server): void;
  /** A second service instance on the same database (own pool, own cache, the same options), for multi-instance tests. */
  secondInstance(): Promise<{
    app: Express;
    cache: SharedCache;
    attach(server: import('node:http').Server): void;
    close(): Promise<void>;
  }>;
  /** Empties every table and re-creates root with ROOT_TOKEN (and waits for every instance to forget its cached credentials). */
  reset(): Promise<void>;
  /**
   * Resolves once every instance of this app has applied every cache invalidation committed so far:
   * after a write straight into the tables (as another program would) that the caches must see.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
  /** Counts SQL statements sent while `fn` runs. */
  countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }>;
  /** The SQL statements sent while `fn` runs, in order. */
  captureQueries<T>(fn: () => Promise<T>): Promise<{ result: T; sql: string[] }>;
  /** What `npm run seed` hands each module's seed step. */
  seedEnv(log: (line: string) => void, scale?: number): SeedEnv;
}

let queryCount = 0;
const TOKEN_LOOKUP = /from personal_access_tokens t join users u on u\.id = t\.user_id/;
/** The statements sent while a `captureQueries` runs. */
let captured: string[] | undefined;

/**
 * Per-app settings: `externalUrl` defaults to EXTERNAL_URL (a client test that follows Link headers passes its server's URL);
 * `clock`: a fixed clock for the app's services; `trustProxy`: TRUST_PROXY; `env`: module settings (e.g. PAGES_ENABLED);
 * `random`: a seeded random source.
 */
export interface TestAppOptions {
  externalUrl?: string;
  trustProxy?: string;
  clock?: Clock;
  env?: AppEnv;
  random?: RandomInt;
}

export async function setupTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const url = await ensureDatabase();
  const model = ormModelOf(MODULES);
  const orm = await initOrm({ clientUrl: url, poolMax: 5, model });
  const newCtx = ctxFactory(loaderFactory(MODULES));
  await migrate(orm);
  orm.em
    .getConnection()
    .getKnex()
    .on('query', (q: { sql: string }) => {
      // Not counted as a request's statements: a user's daily last_activity_on write, which runs beside the
      // request (modules/users/user-activity.ts), and the token lookup, which the credential cache makes
      // once per token and instance (docs/security.md#credential-cache; counted in test/tokens/credential-cache.test.ts).
      if (!q.sql.startsWith('update users set last_activity_on') && !TOKEN_LOOKUP.test(q.sql)) queryCount += 1;
      captured?.push(q.sql);
    });
  // Before each test: a DELETE of every table and its sequences back to 1, in one implicit transaction
  // (a multi-statement simple query), cheaper on test-sized tables than TRUNCATE … RESTART IDENTITY,
  // which makes a new file for every table and index. Every table of the schema but
  // the migrations' own: the entities', those referring to them, and the ones only raw SQL writes
  // (audit_events, the system hooks' outbox, rate-limit counters), so nothing an earlier test file
  // of this worker wrote is seen. Locked first as TRUNCATE locks them, so nothing a previous test
  // left running commits into the emptied tables. The foreign keys cascade or set null, so any order
  // works; should a later one not, TRUNCATE does the job.
  const conn = orm.em.getConnection();
  const schemaTables =
    (await conn.execute(`select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname <> 'mikro_orm_migrations' order by 1`)) as {
      name: string;
    }[];
  const emptied = schemaTables.map((r) => r.name);
  const owned = (await conn.execute(`select s.oid::regclass::text as seq from pg_class s
      join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
     where s.relkind = 'S' and d.deptype in ('a', 'i') and d.refobjid = any(array[${emptied.map((x) => `'${x}'::regclass`).join(', ')}])`)) as {
    seq: string;
  }[];
  const restart = owned.length ? `select ${owned.map((r) => `setval('${r.seq}', 1, false)`).join(', ')};` : '';
  const emptyStatement = `lock table ${emptied.join(', ')} in access exclusive mode; ${emptied.map((x) => `delete from ${x};`).join(' ')} ${restart}`;
  let deleteRefused = false;
  const emptyTables = async () => {
    if (!deleteRefused) {
      try {
        await conn.execute(emptyStatement);
        return;
      } catch (err) {
        deleteRefused = true;
        console.warn(`test reset: DELETE refused (${(err as Error).message}); TRUNCATE from now on (slower)`);
      }
    }
    await conn.execute(`truncate ${emptied.join(', ')} restart identity cascade`);
  };
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const { app, stop, cache, attach } = await buildApp({
    orm,
    logger,
    externalUrl: opts.externalUrl ?? EXTERNAL_URL,
    trustProxy: opts.trustProxy,
    secrets: TEST_SECRETS,
    modules: MODULES,
    clock: opts.clock,
    env: opts.env,
    random: opts.random,
  });
  await cache.ready();
  // On 127.0.0.1, as supertest listens for a bare app: callers keep the address 127.0.0.1.
  // Built as main.ts builds it (core/runtime): the suite runs on the same request objects.
  const server = createAppServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const others: (() => Promise<void>)[] = [];
  const caches: SharedCache[] = [cache];
  let marker = 0;
  // PostgreSQL delivers notifications in commit order: an instance that saw a marker sent now has
  // applied every invalidation committed before it (trigger notices included). An instance whose
  // LISTEN connection is down caches nothing, hence the time limit.
  const settled = async () => {
    const key = `test-settled-${process.pid}-${(marker += 1)}`;
    const seen = caches.map(
      (c) =>
        new Promise<void>((resolve) => {
          const on = (k: string) => {
            if (k !== key) return;
            c.events.off('invalidated', on);
            resolve();
          };
          c.events.on('invalidated', on);
        }),
    );
    await uncachedSharedCache().invalidate(orm.em.fork(), key);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(seen), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
    clearTimeout(timer);
  };
  return {
    app,
    server,
    orm,
    cache,
    attach,
    async secondInstance() {
      const orm2 = await initOrm({ clientUrl: url, poolMax: 3, model });
      const built = await buildApp({
        orm: orm2,
        logger,
        externalUrl: opts.externalUrl ?? EXTERNAL_URL,
        trustProxy: opts.trustProxy,
        secrets: TEST_SECRETS,
        modules: MODULES,
        clock: opts.clock,
        env: opts.env,
        random: opts.random,
      });
      await built.cache.ready();
      caches.push(built.cache);
      const close = async () => {
        caches.splice(caches.indexOf(built.cache), 1);
        await built.stop();
        await orm2.close(true);
      };
      others.push(close);
      return { app: built.app, cache: built.cache, attach: built.attach, close };
    },
    async reset() {
      await emptyTables();
      await ensureRootUser(orm.em.fork(), ROOT_TOKEN, logger);
      await settled();
      // Emptying the tables made every instance forget the throttle settings and feature flags it caches
      // (their tables' triggers): read them again here, as a running instance has them, so that a test's
      // first request does not count those reads.
      await throttleConfig(orm.em.fork(), cache);
      await featureFlags(orm.em.fork(), cache);
    },
    settled,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of others.splice(0)) await c();
      await stop();
      await orm.close(true);
    },
    async countQueries(fn) {
      const before = queryCount;
      const result = await fn();
      return { result, count: queryCount - before };
    },
    async captureQueries(fn) {
      const sql: string[] = [];
      captured = sql;
      try {
        return { result: await fn(), sql };
      } finally {
        captured = undefined;
      }
    },
    seedEnv(log, scale = 0) {
      const em = orm.em.fork();
      return {
        em,
        externalUrl: EXTERNAL_URL,
        log,
        scale,
        as: (user: CurrentUser) =>
          newCtx({
            em: em.fork(),
            user,
            externalUrl: EXTERNAL_URL,
            secrets: TEST_SECRETS,
            cache: uncachedSharedCache(),
          }),
      };
    },
  };
}

/** supertest with a caller: `api(t).as(token).get('/api/v4/groups')`. */
export function api(t: Pick<TestApp, 'app'> & Partial<Pick<TestApp, 'server'>>, token?: string) {
  // The file's listening server; a bare app (a second instance's) is listened on per request by supertest.
  const agent = request(t.server ?? t.app);
  const auth = <R extends request.Test>(r: R): R => (token ? (r.set('PRIVATE-TOKEN', token) as R) : r);
  return {
    get: (path: string) => auth(agent.get(path)),
    post: (path: string) => auth(agent.post(path)),
    put: (path: string) => auth(agent.put(path)),
    delete: (path: string) => auth(agent.delete(path)),
    graphql: (query: string, variables: Record<string, unknown> = {}) =>
      auth(agent.post('/graphql').send({ query, variables })),
  };
}

/**
 * Registers the usual hooks for a test file (one app per file, tables reset before each test) and
 * returns the TestApp, filled in by beforeAll. Pass `{ reset: 'once' }` to reset only before the file.
 */
export function useTestApp(opts: { reset?: 'each' | 'once' } & TestAppOptions = {}): TestApp {
  const holder = {} as TestApp;
  beforeAll(async () => {
    Object.assign(holder, await setupTestApp(opts));
    if (opts.reset === 'once') await holder.reset();
  });
  afterAll(() => holder.close?.()); // absent when beforeAll timed out: report that, not a second error
  if (opts.reset !== 'once') beforeEach(() => holder.reset());
  return holder;
}
