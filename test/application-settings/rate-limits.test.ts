import { once } from 'node:events';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { Express } from 'express';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { initOrm, type Orm } from '../../src/core/db/orm';
import type { SharedCache } from '../../src/core/db/shared-cache';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { createUser } from '../support/factories';
import { ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/** GitLab 10.3's throttle_* settings, accepted, validated and in effect on every instance. */
const t = useTestApp();

/** A second instance on the file's database (its own caches and limiter leases), with the default monitoring whitelist (loopback). */
interface Instance {
  app: Express;
  cache: SharedCache;
  close(): Promise<void>;
}
const instances: Instance[] = [];
async function instance(logger = pino({ level: 'silent' })): Promise<Instance> {
  const orm: Orm = await initOrm({ clientUrl: t.orm.config.getClientUrl(), poolMax: 4, model: ormModelOf(MODULES) });
  const built = await buildApp({
    orm,
    logger,
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    modules: MODULES,
  });
  await built.cache.ready();
  const inst = {
    app: built.app,
    cache: built.cache,
    close: async () => {
      await built.stop();
      await orm.close(true);
    },
  };
  instances.push(inst);
  return inst;
}
afterAll(async () => {
  for (const i of instances.splice(0)) await i.close();
});

const settings = (body: Record<string, unknown>, app: Express = t.app) =>
  request(app).put('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN).send(body);

/** Waits until the window has at least `seconds` left, so one test's requests share a window (short periods only: at most `seconds`). */
async function awayFromWindowEnd(period: number, seconds = 10): Promise<void> {
  const left = period - (Math.floor(Date.now() / 1000) % period);
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

/**
 * A period (seconds, `base` or a little more) whose current window has at least `room` seconds left, so
 * one test's requests share a window without waiting: windows start at multiples of the period since the
 * epoch (src/core/http/rate-limit.ts). Waiting for the next hour's window instead could take a test past
 * its timeout (it did once, at hh:59:3x).
 */
function periodWithRoom(base = 3600, room = 120): number {
  const now = Math.floor(Date.now() / 1000);
  for (let p = base; ; p += 1) if (p - (now % p) >= room) return p;
}

describe('throttle settings', () => {
  it('are shown with GitLab 10.3 defaults and validated as GitLab does', async () => {
    const shown = (
      await request(t.app).get('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN).expect(200)
    ).body;
    for (const name of ['unauthenticated', 'authenticated_api', 'authenticated_web']) {
      expect(shown[`throttle_${name}_enabled`]).toBe(false);
      expect(shown[`throttle_${name}_requests_per_period`]).toBe(3600);
      expect(shown[`throttle_${name}_period_in_seconds`]).toBe(3600);
    }
    expect((await settings({ throttle_unauthenticated_enabled: true }).expect(400)).body).toEqual({
      error:
        'throttle_unauthenticated_requests_per_period is missing, throttle_unauthenticated_period_in_seconds is missing',
    });
    expect(
      (
        await settings({
          throttle_authenticated_api_enabled: true,
          throttle_authenticated_api_requests_per_period: 0,
          throttle_authenticated_api_period_in_seconds: 60,
        }).expect(400)
      ).body,
    ).toEqual({
      message: { throttle_authenticated_api_requests_per_period: ['must be greater than 0'] },
    });
    expect((await settings({ throttle_unauthenticated_period_in_seconds: 'soon' }).expect(400)).body).toEqual({
      error: 'throttle_unauthenticated_period_in_seconds is invalid',
    });
    const saved = (
      await settings({
        throttle_authenticated_web_enabled: true,
        throttle_authenticated_web_requests_per_period: 7,
        throttle_authenticated_web_period_in_seconds: 70,
      }).expect(200)
    ).body;
    expect(saved).toMatchObject({
      throttle_authenticated_web_enabled: true,
      throttle_authenticated_web_requests_per_period: 7,
      throttle_authenticated_web_period_in_seconds: 70,
    });
    const gql = await request(t.app).post('/graphql').set('PRIVATE-TOKEN', ROOT_TOKEN).send({
      query: '{ applicationSettings { throttleAuthenticatedWebRequestsPerPeriod throttleUnauthenticatedEnabled } }',
    });
    expect(gql.body).toEqual({
      data: {
        applicationSettings: { throttleAuthenticatedWebRequestsPerPeriod: 7, throttleUnauthenticatedEnabled: false },
      },
    });
  });

  it('jobqueue throttling is satisfied by the spec name jobqueue_throttling_queues, and by the misspelt alias', async () => {
    await settings({
      jobqueue_throttling_enabled: true,
      jobqueue_throttling_queues: ['mailers'],
      jobqueue_throttling_factor: 0.5,
    }).expect(200);
    await settings({
      jobqueue_throttling_enabled: true,
      jobqueue_throttling_queus: ['pipelines'],
      jobqueue_throttling_factor: 0.5,
    }).expect(200);
    expect(
      (await settings({ jobqueue_throttling_enabled: true, jobqueue_throttling_factor: 0.5 }).expect(400)).body,
    ).toEqual({ error: 'jobqueue_throttling_queues is missing' });
  });
});

describe('rate limits in effect', () => {
  it("answers 429 Retry later with GitLab's headers to the request past the limit of an IP address, on both surfaces", async () => {
    const a = await instance();
    await awayFromWindowEnd(60);
    await settings({
      throttle_unauthenticated_enabled: true,
      throttle_unauthenticated_requests_per_period: 3,
      throttle_unauthenticated_period_in_seconds: 60,
    }).expect(200);
    // The instance learns the change from the notification; then the counters start from zero.
    await waitFor(
      'the throttle reaches the instance',
      async () => (await request(a.app).get('/api/v4/groups')).status === 429,
      5000,
    );
    await t.orm.em.getConnection().execute('delete from rate_limit_counters');
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i += 1) {
      last = await request(a.app).get('/api/v4/groups');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.text).toBe('Retry later\n');
    expect(last!.headers['content-type']).toBe('text/plain; charset=utf-8');
    const retryAfter = Number(last!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last!.headers).toMatchObject({
      'ratelimit-name': 'throttle_unauthenticated',
      'ratelimit-limit': '3',
      'ratelimit-remaining': '0',
    });
    expect(last!.headers['ratelimit-observed']).toBe('4');
    expect(Number(last!.headers['ratelimit-reset'])).toBe(
      Math.floor(Date.now() / 1000) - (Math.floor(Date.now() / 1000) % 60) + 60,
    );
    expect(new Date(last!.headers['ratelimit-resettime']).getTime() / 1000).toBe(
      Number(last!.headers['ratelimit-reset']),
    );
    // GraphQL counts on the same address; a token holder is not an unauthenticated request.
    expect((await request(a.app).post('/graphql').send({ query: '{ __typename }' })).status).toBe(429);
    expect((await request(a.app).get('/api/v4/groups').set('PRIVATE-TOKEN', ROOT_TOKEN)).status).toBe(200);
    // The ops endpoints are never throttled (answered before the limiter).
    expect((await request(a.app).get('/-/liveness')).status).toBe(200);
    await settings({ throttle_unauthenticated_enabled: false }).expect(200);
    await waitFor(
      'switched off everywhere',
      async () => (await request(a.app).get('/api/v4/groups')).status === 200,
      5000,
    );
  });

  it('limits a token holder per user, whatever address, and leaves other users alone', async () => {
    const a = await instance();
    const alice = await createUser(t, { username: 'alice' });
    const bob = await createUser(t, { username: 'bob' });
    const period = periodWithRoom();
    await settings({
      throttle_authenticated_api_enabled: true,
      throttle_authenticated_api_requests_per_period: 4,
      throttle_authenticated_api_period_in_seconds: period,
    }).expect(200);
    await waitFor(
      'the throttle reaches the instance',
      async () => (await request(a.app).get('/api/v4/user').set('PRIVATE-TOKEN', bob.token)).status === 429,
      5000,
    );
    await t.orm.em
      .getConnection()
      .execute(`delete from rate_limit_counters where key <> 'throttle_authenticated_api:user:${bob.id}'`);
    const seen: number[] = [];
    for (let i = 0; i < 6; i += 1)
      seen.push((await request(a.app).get('/api/v4/user').set('PRIVATE-TOKEN', alice.token)).status);
    expect(seen).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await request(a.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${alice.token}`)
      .send({ query: '{ currentUser { username } }' });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-name']).toBe('throttle_authenticated_api');
    // Anonymous requests are not throttled by the authenticated limit.
    expect((await request(a.app).get('/api/v4/groups')).status).toBe(200);
    await settings({ throttle_authenticated_api_enabled: false }).expect(200);
  });

  it('reports a failed clean-up of expired counters as a warning and keeps limiting', async () => {
    const lines: { level: number; msg: string; err?: { message: string } }[] = [];
    const a = await instance(
      pino(
        { level: 'warn' },
        new Writable({ write: (chunk, _enc, cb) => (lines.push(JSON.parse(String(chunk))), cb()) }),
      ),
    );
    const sql = (q: string) => t.orm.em.getConnection().execute(q);
    await sql(
      `create function test_refuse_delete() returns trigger language plpgsql as $$ begin raise exception 'deletes refused by the test'; end $$`,
    );
    await sql(
      'create trigger test_refuse_delete before delete on rate_limit_counters for each statement execute function test_refuse_delete()',
    );
    try {
      await settings({
        throttle_unauthenticated_enabled: true,
        throttle_unauthenticated_requests_per_period: 1000,
        throttle_unauthenticated_period_in_seconds: 60,
      }).expect(200);
      // The instance's first counted request also deletes expired windows (then once a minute).
      await waitFor(
        'the failed clean-up is reported',
        async () => {
          expect((await request(a.app).get('/api/v4/groups')).status).toBe(200);
          return lines.some((l) => l.msg.startsWith('rate limits: deleting expired counters failed'));
        },
        5000,
      );
      const warned = lines.find((l) => l.msg.startsWith('rate limits: deleting expired counters failed'))!;
      expect(warned.level).toBe(40);
      expect(warned.err?.message).toContain('deletes refused by the test');
    } finally {
      await sql('drop trigger test_refuse_delete on rate_limit_counters');
      await sql('drop function test_refuse_delete()');
      await settings({ throttle_unauthenticated_enabled: false }).expect(200);
    }
  });

  it('throttles callers on 127.0.0.1 like any address (no safelist), and never the /-/ endpoints', async () => {
    // t.server listens on 127.0.0.1, which the default MONITORING_WHITELIST holds: no exemption from the throttles.
    const local = () => request(t.server);
    const period = periodWithRoom();
    await settings({
      throttle_unauthenticated_enabled: true,
      throttle_unauthenticated_requests_per_period: 2,
      throttle_unauthenticated_period_in_seconds: period,
      throttle_authenticated_api_enabled: true,
      throttle_authenticated_api_requests_per_period: 2,
      throttle_authenticated_api_period_in_seconds: period,
    }).expect(200);
    const alice = await createUser(t, { username: 'alice' });
    await t.orm.em.getConnection().execute('delete from rate_limit_counters');
    const anonymous: number[] = [];
    const user: number[] = [];
    for (let i = 0; i < 4; i += 1) anonymous.push((await local().get('/api/v4/groups')).status);
    for (let i = 0; i < 4; i += 1)
      user.push((await local().get('/api/v4/user').set('PRIVATE-TOKEN', alice.token)).status);
    expect({ anonymous, user }).toEqual({ anonymous: [200, 200, 429, 429], user: [200, 200, 429, 429] });
    expect(await t.orm.em.getConnection().execute('select key from rate_limit_counters order by key')).toEqual([
      { key: `throttle_authenticated_api:user:${alice.id}` },
      { key: 'throttle_unauthenticated:ip:127.0.0.1' },
    ]);
    // Health, readiness, liveness and metrics are answered before the limiter, to the monitoring whitelist (loopback here).
    for (let i = 0; i < 3; i += 1) {
      for (const path of ['/-/health', '/-/readiness', '/-/liveness', '/-/metrics'])
        expect([path, (await local().get(path)).status]).toEqual([path, 200]);
    }
    await settings({ throttle_unauthenticated_enabled: false, throttle_authenticated_api_enabled: false }).expect(200);
  });

  it('takes effect on every instance when the settings row is written by something else (an SQL console): a trigger notifies', async () => {
    const a = await instance();
    await request(t.app).get('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN).expect(200); // the row exists
    expect((await request(a.app).get('/api/v4/groups')).status).toBe(200); // a has read (and cached) the throttles: off
    const period = periodWithRoom();
    await t.orm.em.getConnection().execute('delete from rate_limit_counters');
    await t.orm.em.getConnection().execute(
      `update application_settings set throttle_unauthenticated_enabled = true, throttle_unauthenticated_requests_per_period = 2,
              throttle_unauthenticated_period_in_seconds = ${period}`,
    );
    await t.settled();
    await waitFor(
      'the direct write reaches the instance',
      async () => (await request(a.app).get('/api/v4/groups')).status === 429,
      5000,
    );
    await t.orm.em.getConnection().execute('update application_settings set throttle_unauthenticated_enabled = false');
    await t.settled();
    await waitFor(
      'switched off by SQL too',
      async () => (await request(a.app).get('/api/v4/groups')).status === 200,
      5000,
    );
  });

  it('holds across two instances: the total admitted is the limit', async () => {
    const [a, b] = [await instance(), await instance()];
    const limit = 30;
    const period = periodWithRoom();
    await settings({
      throttle_unauthenticated_enabled: true,
      throttle_unauthenticated_requests_per_period: limit,
      throttle_unauthenticated_period_in_seconds: period,
    }).expect(200);
    // Both instances learn the change from the notification; until then they count nothing.
    await waitFor(
      'both instances throttle',
      async () => {
        await Promise.all(Array.from({ length: 8 }, () => request(a.app).get('/api/v4/groups')));
        const [x, y] = await Promise.all([request(a.app).get('/api/v4/groups'), request(b.app).get('/api/v4/groups')]);
        return x.status === 429 && y.status === 429;
      },
      10_000,
    );
    // Then a clean count for this client.
    await t.orm.em.getConnection().execute('delete from rate_limit_counters');
    const send = (app: Express) =>
      request(app)
        .get('/api/v4/groups')
        .then((r) => r.status);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 === 0 ? a.app : b.app)));
    expect(results.filter((s) => s === 200)).toHaveLength(limit);
    expect(results.filter((s) => s === 429)).toHaveLength(40 - limit);

    // A larger limit is counted in blocks (1/64 of it, here 10 per round trip): never more than the
    // limit in total, at most (instances × 9) refused early.
    // (The counters are not reset below: a reset under live leases would hand out their rest twice.)
    await t.orm.em.getConnection().execute('delete from rate_limit_counters');
    // Wait for both instances to hear of the change before sending anything: a request an instance still
    // counts under the old limit would take a slot of the new count (a slow machine missed 72 so).
    const heard = [a, b].map((i) => once(i.cache.events, 'invalidated'));
    await settings({ throttle_unauthenticated_requests_per_period: 640 }).expect(200);
    await Promise.all(heard);
    let admitted = 0;
    await waitFor(
      'the new limit reaches both instances',
      async () => {
        const [x, y] = await Promise.all([send(a.app), send(b.app)]);
        admitted += [x, y].filter((s) => s === 200).length;
        return x === 200 && y === 200;
      },
      10_000,
    );
    for (let i = 0; i < 70; i += 1) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => send(j % 2 === 0 ? a.app : b.app)));
      admitted += batch.filter((s) => s === 200).length;
    }
    expect(admitted).toBeLessThanOrEqual(640);
    expect(admitted).toBeGreaterThanOrEqual(640 - 2 * 9);
    await settings({ throttle_unauthenticated_enabled: false }).expect(200);
  });
});
