import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createGroup, createUser } from '../support/factories';

const t = useTestApp();

describe('REST conventions (docs/gitlab-compatibility.md)', () => {
  it('answers unknown routes and wrong methods with the JSON 404 of the catch-all route', async () => {
    for (const res of [
      await api(t).get('/api/v4/nope'),
      await api(t).put('/api/v4/groups'),
      await api(t).get('/api/v4/groups/1/nope'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
      expect(res.headers['content-type']).toBe('application/json');
    }
  });

  it('sends Content-Type exactly application/json (python-gitlab 3.x compares the whole header)', async () => {
    const res = await api(t, ROOT_TOKEN).get('/api/v4/user');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('accepts the token as PRIVATE-TOKEN, Bearer and private_token; an unknown token is 401 even where anonymous is allowed', async () => {
    const viaHeader = await api(t).get('/api/v4/user').set('PRIVATE-TOKEN', ROOT_TOKEN);
    const viaBearer = await api(t).get('/api/v4/user').set('Authorization', `Bearer ${ROOT_TOKEN}`);
    const viaParam = await api(t).get(`/api/v4/user?private_token=${ROOT_TOKEN}`);
    expect([viaHeader.body.username, viaBearer.body.username, viaParam.body.username]).toEqual([
      'root',
      'root',
      'root',
    ]);
    const bad = await api(t, 'not-a-token').get('/api/v4/groups');
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ message: '401 Unauthorized' });
    const anonymous = await api(t).get('/api/v4/groups');
    expect(anonymous.status).toBe(200);
  });

  it('takes a private_token in a form body too', async () => {
    const res = await api(t)
      .post('/api/v4/groups')
      .type('form')
      .send({ private_token: ROOT_TOKEN, name: 'Form', path: 'form' });
    expect(res.status).toBe(201);
  });

  it('accepts JSON, form-urlencoded and multipart bodies with the same result', async () => {
    const json = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .send({ name: 'Json', path: 'json', request_access_enabled: true });
    const form = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .type('form')
      .send('name=Form&path=form&request_access_enabled=True');
    const multipart = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .field('name', 'Multi')
      .field('path', 'multi')
      .field('request_access_enabled', '1');
    for (const res of [json, form, multipart]) {
      expect(res.status).toBe(201);
      expect(res.body.request_access_enabled).toBe(true);
    }
  });

  it('answers malformed JSON with 400 and a JSON body', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(typeof res.body.error).toBe('string');
  });

  it('rejects an unparseable boolean with "<name> is invalid"', async () => {
    const res = await api(t, ROOT_TOKEN).get('/api/v4/groups?all_available=maybe');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'all_available is invalid' });
  });

  it('tolerates repeated and trailing slashes', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    expect((await api(t).get('/api/v4/groups/')).status).toBe(200);
    const res = await api(t).get(`/api/v4//groups//${g.id}/`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(g.id);
  });

  it('works for a DELETE carrying a {} JSON body (gitbeaker)', async () => {
    const g = await createGroup(t);
    const res = await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}`).send({});
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('renders timestamps as ISO 8601 UTC with milliseconds', async () => {
    const res = await api(t, ROOT_TOKEN).get('/api/v4/user');
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('merges arrays given as a[]=, repeated keys, JSON arrays and more than 20 items', async () => {
    const groups = [];
    for (let i = 0; i < 3; i += 1) groups.push(await createGroup(t, { visibility: 'public' }));
    const many = Array.from({ length: 30 }, (_x, i) => 1000 + i);
    const q1 = await api(t).get(`/api/v4/groups?skip_groups[]=${groups[0].id}&skip_groups[]=${groups[1].id}`);
    const q2 = await api(t).get(`/api/v4/groups?skip_groups=${groups[0].id}&skip_groups=${groups[1].id}`);
    const q3 = await api(t).get(
      `/api/v4/groups?${[groups[0].id, ...many].map((id) => `skip_groups[]=${id}`).join('&')}`,
    );
    expect(q1.body.map((g: { id: number }) => g.id)).toEqual([groups[2].id]);
    expect(q2.body.map((g: { id: number }) => g.id)).toEqual([groups[2].id]);
    expect(q3.status).toBe(200);
    expect(q3.body).toHaveLength(2);
  });

  it('a revoked or expired token stops working at once', async () => {
    const u = await createUser(t);
    expect((await api(t, u.token).get('/api/v4/user')).status).toBe(200);
    await t.orm.em
      .getConnection()
      .execute(`update personal_access_tokens set expires_at = '2000-01-01' where user_id = ?`, [u.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    expect((await api(t, u.token).get('/api/v4/user')).status).toBe(401);
  });
});

describe('hostile input never reaches a 5xx', () => {
  it('NUL bytes in queries, paths and bodies are 400 "<name> is invalid"', async () => {
    expect((await api(t).get('/api/v4/groups?search=a%00b')).body).toEqual({ error: 'search is invalid' });
    expect((await api(t).get('/api/v4/groups/a%00b')).body).toEqual({ error: 'id is invalid' });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/users?search=%00')).status).toBe(400);
    expect((await api(t, ROOT_TOKEN).post('/api/v4/groups').send({ name: 'a\u0000', path: 'x' })).body).toEqual({
      error: 'name is invalid',
    });
    const gql = await api(t).graphql('query($s: String) { groups(search: $s) { count } }', { s: 'a\u0000' });
    expect(gql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('impossible calendar dates are 400 on both surfaces', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/users/1/impersonation_tokens')
      .send({ name: 'x', scopes: ['api'], expires_at: '2020-02-30' });
    expect(res.body).toEqual({ error: 'expires_at is invalid' });
    const gql = await api(t, ROOT_TOKEN).graphql(
      'mutation { impersonationTokenCreate(input: { userId: 1, name: "x", scopes: ["api"], expiresAt: "2021-02-29" }) { impersonationToken { id } errors } }',
    );
    expect(gql.body).toEqual({
      data: { impersonationTokenCreate: { impersonationToken: null, errors: ['expires_at is invalid'] } },
    });
  });

  it('strings longer than their columns are validation errors', async () => {
    const long = 'x'.repeat(256);
    expect((await api(t, ROOT_TOKEN).put('/api/v4/users/1').send({ location: long })).body).toEqual({
      message: { location: ['is too long (maximum is 255 characters)'] },
    });
    const p = await api(t, ROOT_TOKEN).post('/api/v4/projects').send({ name: 'p' });
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.body.id}`).send({ default_branch: long })).body).toEqual(
      { message: { default_branch: ['is too long (maximum is 255 characters)'] } },
    );
  });

  it('odd JSON bodies and out-of-range numbers are 400', async () => {
    for (const body of ['null', '[1,2]', '"text"', '{"name":{"x":1},"path":"p"}']) {
      const res = await api(t, ROOT_TOKEN).post('/api/v4/groups').set('Content-Type', 'application/json').send(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await api(t).get('/api/v4/groups?page=99999999999')).body).toEqual({ error: 'page is invalid' });
    expect((await api(t).get('/api/v4/groups/%E0%A4%A')).status).toBe(400);
  });
});

describe('ops endpoints', () => {
  it('GET /-/health, /-/liveness and /-/readiness answer 200', async () => {
    expect((await api(t).get('/-/health')).status).toBe(200);
    expect((await api(t).get('/-/liveness')).body).toEqual({ status: 'ok' });
    const ready = await api(t).get('/-/readiness');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
  });

  it('GET /-/metrics exposes request counts by route template and status, and process metrics', async () => {
    await api(t).get('/api/v4/groups');
    const res = await api(t).get('/-/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="GET \/groups",status="200"\} \d+/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('tags every response with a request id', async () => {
    const res = await api(t).get('/-/health').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});
