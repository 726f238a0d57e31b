import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../../src/app';
import { createLogger } from '../../src/core/logger';
import { MODULES } from '../../src/modules';
import { installProcessPolicy } from '../../src/ops/process-policy';
import { EventEmitter } from 'node:events';
import { ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

type Line = Record<string, unknown> & { level: number; msg: string };

const t = useTestApp();
const lines: Line[] = [];
let app: Express;
let stop: () => Promise<void>;

beforeAll(async () => {
  const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  ({ app, stop } = await buildApp({
    orm: t.orm,
    logger,
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    modules: MODULES,
  }));
});
afterAll(() => stop());
beforeEach(() => {
  lines.length = 0;
});

const errorLines = () => lines.filter((l) => l.level >= 50);

/** A trigger makes every group insert fail inside the driver, which puts the SQL into the message. */
async function withFailingGroupInserts<T>(fn: () => Promise<T>): Promise<T> {
  const conn = t.orm.em.getConnection();
  await conn.execute(
    `create function reliability_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
  );
  await conn.execute(
    'create trigger reliability_fail before insert on namespaces for each row execute function reliability_fail()',
  );
  try {
    return await fn();
  } finally {
    await conn.execute('drop trigger reliability_fail on namespaces');
    await conn.execute('drop function reliability_fail()');
  }
}

describe('unexpected errors are logged once, without SQL values', () => {
  it('logs a REST failure with request id, route and user id', async () => {
    const res = await withFailingGroupInserts(() =>
      request(app)
        .post('/api/v4/groups')
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .set('X-Request-Id', 'req-rest-41')
        .send({ name: 'needle-secret-41', path: 'needle-secret-41' }),
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: '500 Internal Server Error' });
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'unexpected error',
      surface: 'rest',
      reqId: 'req-rest-41',
      route: 'POST /groups',
      userId: 1,
    });
    expect((errors[0].err as { message: string }).message).toMatch(/^insert into "namespaces" .* - injected failure$/);
    expect(JSON.stringify(lines)).not.toContain('needle-secret-41');
  });

  it('logs a GraphQL failure with request id, operation and user id', async () => {
    const res = await withFailingGroupInserts(() =>
      request(app).post('/graphql').set('PRIVATE-TOKEN', ROOT_TOKEN).set('X-Request-Id', 'req-gql-42').send({
        query:
          'mutation Make { groupCreate(input: { name: "needle-secret-42", path: "needle-secret-42" }) { group { id } errors } }',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'INTERNAL_SERVER_ERROR',
    ]);
    const errors = errorLines();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'unexpected error',
      surface: 'graphql',
      reqId: 'req-gql-42',
      route: 'graphql mutation groupCreate',
      userId: 1,
    });
    expect(JSON.stringify(lines)).not.toContain('needle-secret-42');
  });

  it('does not log client errors as errors', async () => {
    expect((await request(app).get('/api/v4/groups/999999').set('PRIVATE-TOKEN', ROOT_TOKEN)).status).toBe(404);
    expect((await request(app).post('/graphql').send({ query: '{ nope' })).status).toBe(400);
    // A missing group is null without an error on GraphQL; a refused mutation is a client error, not logged.
    expect((await request(app).post('/graphql').send({ query: '{ group(id: 999999) { id } }' })).body).toEqual({
      data: { group: null },
    });
    expect(
      (
        await request(app)
          .post('/graphql')
          .set('PRIVATE-TOKEN', ROOT_TOKEN)
          .send({ query: 'mutation { groupUpdate(input: { id: 999999, name: "x" }) { errors } }' })
      ).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(errorLines()).toEqual([]);
  });
});

describe('GET /-/metrics', () => {
  const routeLabels = (text: string) =>
    new Set([...text.matchAll(/^http_requests_total\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]));

  it('labels unmatched paths as one value and GraphQL by operation type and root field', async () => {
    const { app, stop: stopFresh } = await buildApp({
      orm: t.orm,
      logger: createLogger('silent'),
      externalUrl: 'http://gitlab.test',
      secrets: TEST_SECRETS,
      modules: MODULES,
    });
    await Promise.all(Array.from({ length: 60 }, (_, i) => request(app).get(`/random-${i}-${Math.random()}`)));
    await Promise.all(Array.from({ length: 20 }, (_, i) => request(app).get(`/api/v4/nothing-${i}`)));
    await request(app).post('/graphql').send({ query: 'query Anything { groups { nodes { id } } }' });
    await request(app).post('/graphql').send({ query: 'query Other { groups { nodes { id } } }' });
    await request(app).get('/api/v4/groups');
    const text = (await request(app).get('/-/metrics')).text;
    await stopFresh();
    expect([...routeLabels(text)].sort()).toEqual(['GET /groups', 'graphql query groups', 'unmatched']);
    // The latency histograms have the same bounded labels.
    const histogramRoutes = new Set(
      [...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]),
    );
    expect([...histogramRoutes].sort()).toEqual(['GET /groups', 'graphql query groups', 'unmatched']);
  });

  it('exports pool gauges and counts database errors', async () => {
    await withFailingGroupInserts(() =>
      request(app).post('/api/v4/groups').set('PRIVATE-TOKEN', ROOT_TOKEN).send({ name: 'g1', path: 'g1' }),
    );
    const text = (await request(app).get('/-/metrics')).text;
    expect(text).toMatch(/^db_pool_connections_in_use \d+$/m);
    expect(text).toMatch(/^db_pool_connections_idle \d+$/m);
    expect(text).toMatch(/^db_pool_waiting \d+$/m);
    expect(text).toMatch(/^db_up 1$/m);
    expect(text).toMatch(/^db_errors_total\{kind="query"\} [1-9]\d*$/m);
  });

  it('counts errors nothing caught, by kind', async () => {
    const target = new EventEmitter();
    installProcessPolicy({
      logger: createLogger('silent'),
      stop: () => undefined,
      exit: () => undefined,
      target,
      hardExitMs: 60_000,
    });
    const read = async (kind: string) =>
      Number(
        new RegExp(`^process_errors_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(
          (await request(app).get('/-/metrics')).text,
        )?.[1] ?? 0,
      );
    const before = await read('unhandled_rejection');
    target.emit('unhandledRejection', new Error('nobody listened'), Promise.resolve());
    target.emit('unhandledRejection', new Error('nobody listened either'), Promise.resolve());
    expect(await read('unhandled_rejection')).toBe(before + 2);
    expect((await request(app).get('/-/metrics')).text).toContain('# TYPE process_errors_total counter');
  });
});

describe('the access log', () => {
  const requestLines = () => lines.filter((l) => l.msg === 'request');

  it('has the full path with its query, credentials redacted, the route and the user served', async () => {
    const res = await request(app).get(`/api/v4/groups?per_page=2&private_token=${ROOT_TOKEN}&search=a%20b`);
    expect(res.status).toBe(200);
    expect(requestLines()).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/v4/groups?per_page=2&private_token=[FILTERED]&search=a%20b',
        route: 'GET /groups',
        userId: 1,
        status: 200,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(ROOT_TOKEN);
  });

  it('redacts every credential parameter, however it is spelled, and logs anonymous callers as user null', async () => {
    await request(app).post('/api/v4/runners/verify?token=needle-runner-43').send({});
    await request(app).get('/api/v4/groups?private%5Ftoken=needle-44&ACCESS_TOKEN=needle-45&input[password]=needle-46');
    const [verify, groups] = requestLines();
    expect(verify).toMatchObject({ path: '/api/v4/runners/verify?token=[FILTERED]', userId: null });
    expect(groups).toMatchObject({
      path: '/api/v4/groups?private%5Ftoken=[FILTERED]&ACCESS_TOKEN=[FILTERED]&input[password]=[FILTERED]',
    });
    expect(JSON.stringify(lines)).not.toMatch(/needle-4[3-6]/);
  });
});

describe('MONITORING_WHITELIST', () => {
  it('answers 404 to callers outside the list, whatever X-Forwarded-For says', async () => {
    const { app: closed, stop: stopClosed } = await buildApp({
      orm: t.orm,
      logger: createLogger('silent'),
      externalUrl: 'http://gitlab.test',
      monitoringWhitelist: ['10.0.0.0/8'],
      secrets: TEST_SECRETS,
      modules: MODULES,
    });
    try {
      for (const path of ['/-/metrics', '/-/readiness', '/-/liveness', '/-/health']) {
        const res = await request(closed).get(path).set('X-Forwarded-For', '10.1.2.3');
        expect([path, res.status]).toEqual([path, 404]);
      }
    } finally {
      await stopClosed();
    }
  });

  it('serves loopback callers by default', async () => {
    for (const path of ['/-/metrics', '/-/readiness', '/-/liveness', '/-/health']) {
      expect([path, (await request(app).get(path)).status]).toEqual([path, 200]);
    }
  });
});

describe('database role', () => {
  it('the test harness connects as a non-superuser, like the service', async () => {
    const rows = await t.orm.em
      .getConnection()
      .execute<{ rolsuper: boolean }[]>('select rolsuper from pg_roles where rolname = current_user');
    expect(rows).toEqual([{ rolsuper: false }]);
  });
});
