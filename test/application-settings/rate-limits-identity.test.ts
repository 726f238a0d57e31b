import request from 'supertest';
import { createUser } from '../support/factories';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/**
 * The rate limits (throttle_*) charge the identity a request is served as, whatever carries its token:
 * a header, the query string, or a JSON, form or multipart body (docs/rest.md#rate-limits-throttle_). Requests come
 * from 127.0.0.1, which is throttled like any address.
 */
const t = useTestApp();
const client = () => request(t.server);
const settings = (body: Record<string, unknown>) =>
  client().put('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN).send(body).expect(200);
const sql = <T>(q: string, params: unknown[] = []) => t.orm.em.getConnection().execute(q, params) as Promise<T[]>;
const namespaces = async (...paths: string[]) =>
  (await sql<{ path: string }>('select path from namespaces where path in (?) order by path', [paths])).map(
    (r) => r.path,
  );

/** A period (seconds, about an hour) whose current window has at least `room` seconds left, so a test's requests share one window. */
function periodWithRoom(base = 3600, room = 120): number {
  const now = Math.floor(Date.now() / 1000);
  for (let p = base; ; p += 1) if (p - (now % p) >= room) return p;
}

const groupCreate = (path: string) =>
  `mutation { groupCreate(input: { name: "${path}", path: "${path}" }) { group { fullPath } errors } }`;

/** Turns the authenticated throttle on for `limit` requests, then spends `user`'s budget with header requests. */
async function pastTheBudget(token: string, limit = 3): Promise<void> {
  await settings({
    throttle_authenticated_api_enabled: true,
    throttle_authenticated_api_requests_per_period: limit,
    throttle_authenticated_api_period_in_seconds: periodWithRoom(),
  });
  await waitFor(
    'the throttle is in effect',
    async () => (await client().get('/api/v4/user').set('PRIVATE-TOKEN', token)).status === 429,
    5000,
  );
  await sql('delete from rate_limit_counters');
  const seen: number[] = [];
  for (let i = 0; i <= limit; i += 1)
    seen.push((await client().get('/api/v4/user').set('PRIVATE-TOKEN', token)).status);
  expect(seen).toEqual([...new Array<number>(limit).fill(200), 429]);
}

function expectRefused(res: request.Response): void {
  expect([res.status, res.text, res.headers['ratelimit-name']]).toEqual([
    429,
    'Retry later\n',
    'throttle_authenticated_api',
  ]);
}

describe('a user past the authenticated budget', () => {
  it('is refused 429 with private_token in a JSON body to POST /graphql and /api/graphql, and the mutation does not run', async () => {
    const alice = await createUser(t, { username: 'alice' });
    await pastTheBudget(alice.token);
    let served = 0;
    for (let i = 0; i < 30; i += 1) {
      const path = i % 2 === 0 ? '/graphql' : '/api/graphql';
      const res = await client()
        .post(path)
        .send({ query: groupCreate(`json-${i}`), private_token: alice.token });
      if (res.status !== 429) served += 1;
      if (i < 2) expectRefused(res);
    }
    expect(served).toBe(0);
    expect(await namespaces(...Array.from({ length: 30 }, (_, i) => `json-${i}`))).toEqual([]);
  });

  it('is refused 429 with private_token in a form, multipart or JSON body to a REST write, and nothing is written', async () => {
    const alice = await createUser(t, { username: 'alice' });
    await pastTheBudget(alice.token);
    let served = 0;
    for (let i = 0; i < 30; i += 1) {
      const res = await client()
        .post('/api/v4/groups')
        .type('form')
        .send({ name: `form-${i}`, path: `form-${i}`, private_token: alice.token });
      if (res.status !== 429) served += 1;
      if (i === 0) expectRefused(res);
    }
    expect(served).toBe(0);
    // Multipart on a route without file parameters (one that takes files authenticates before the body).
    expectRefused(
      await client()
        .post('/api/v4/user/emails')
        .field('email', 'multi@example.com')
        .field('private_token', alice.token),
    );
    expectRefused(
      await client().post('/api/v4/groups').send({ name: 'json', path: 'json', private_token: alice.token }),
    );
    expectRefused(
      await client().put(`/api/v4/users/${alice.id}`).type('form').send({ bio: 'changed', private_token: alice.token }),
    );
    expect(await namespaces('json', ...Array.from({ length: 30 }, (_, i) => `form-${i}`))).toEqual([]);
    expect(await sql(`select 1 from emails where email = 'multi@example.com'`)).toEqual([]);
    expect(await sql<{ bio: string | null }>('select bio from users where id = ?', [alice.id])).not.toEqual([
      { bio: 'changed' },
    ]);
    // Another user keeps their own budget, with a token in the body too.
    const bob = await createUser(t, { username: 'bob' });
    expect(
      (
        await client()
          .post('/api/v4/groups')
          .type('form')
          .send({ name: 'bobs', path: 'bobs', private_token: bob.token })
      ).status,
    ).toBe(201);
  });
});

describe('a token in the body, under the budget', () => {
  it('is served as its user and charged to that user only, not to the client address', async () => {
    const alice = await createUser(t, { username: 'alice' });
    const period = periodWithRoom();
    await settings({
      throttle_authenticated_api_enabled: true,
      throttle_authenticated_api_requests_per_period: 10,
      throttle_authenticated_api_period_in_seconds: period,
      throttle_unauthenticated_enabled: true,
      throttle_unauthenticated_requests_per_period: 2,
      throttle_unauthenticated_period_in_seconds: period,
    });
    await sql('delete from rate_limit_counters');
    const me = await client()
      .post('/graphql')
      .send({ query: '{ currentUser { username } }', private_token: alice.token })
      .expect(200);
    expect(me.body).toEqual({ data: { currentUser: { username: 'alice' } } });
    await client()
      .post('/api/v4/groups')
      .type('form')
      .send({ name: 'aliceform', path: 'aliceform', private_token: alice.token })
      .expect(201);
    // Multipart on a route without file parameters (a route that takes files authenticates before the body:
    // docs/security.md#multipart).
    await client()
      .post('/api/v4/user/emails')
      .field('email', 'alice-multi@example.com')
      .field('private_token', alice.token)
      .expect(201);
    const owners = await sql<{ path: string; username: string }>(
      `select n.path, u.username from namespaces n join group_members gm on gm.group_id = n.id join users u on u.id = gm.user_id
        where n.path = 'aliceform'
       union all
       select e.email as path, u.username from emails e join users u on u.id = e.user_id where e.email = 'alice-multi@example.com'`,
    );
    expect(owners).toEqual([
      { path: 'aliceform', username: 'alice' },
      { path: 'alice-multi@example.com', username: 'alice' },
    ]);
    const counters = await sql<{ key: string; hits: number }>('select key, hits from rate_limit_counters order by key');
    expect(counters).toEqual([{ key: `throttle_authenticated_api:user:${alice.id}`, hits: 3 }]);
    // The address's anonymous budget (2) is whole.
    const anonymous: number[] = [];
    for (let i = 0; i < 3; i += 1) anonymous.push((await client().get('/api/v4/groups')).status);
    expect(anonymous).toEqual([200, 200, 429]);
  });
});

describe('a request without a token', () => {
  it('is charged to its address after its body is read, also when it is answered before authentication', async () => {
    await settings({
      throttle_unauthenticated_enabled: true,
      throttle_unauthenticated_requests_per_period: 3,
      throttle_unauthenticated_period_in_seconds: periodWithRoom(),
    });
    await sql('delete from rate_limit_counters');
    // No such route: answered 404 without authentication, counted when it ends.
    expect((await client().post('/api/v4/no-such-route').send({ a: 1 })).status).toBe(404);
    await waitFor(
      'the 404 is counted',
      async () =>
        (
          await sql<{ hits: number }>(
            `select hits from rate_limit_counters where key = 'throttle_unauthenticated:ip:127.0.0.1'`,
          )
        )[0]?.hits === 1,
      5000,
    );
    expect((await client().post('/graphql').send({ query: '{ __typename }' })).status).toBe(200);
    expect((await client().post('/api/v4/groups').type('form').send({ name: 'anon', path: 'anon' })).status).toBe(401);
    const refused = await client().post('/graphql').send({ query: '{ __typename }' });
    expect([refused.status, refused.text, refused.headers['ratelimit-name']]).toEqual([
      429,
      'Retry later\n',
      'throttle_unauthenticated',
    ]);
    expect((await client().post('/api/v4/groups').type('form').send({ name: 'anon', path: 'anon' })).status).toBe(429);
  });
});
