import crypto from 'node:crypto';
import { createGroup, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';

const t = useTestApp();

const INSUFFICIENT = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'api',
};

async function tokenFor(app: TestApp, userId: number, scopes: string[], impersonation = false): Promise<string> {
  const token = `scoped-${crypto.randomBytes(10).toString('hex')}`;
  await queryOne(
    app,
    `insert into personal_access_tokens (user_id, name, token_digest, scopes, impersonation) values (?, 'scoped', ?, ?::text[], ?)`,
    [userId, crypto.createHash('sha256').update(token).digest('hex'), `{${scopes.join(',')}}`, impersonation],
  );
  return token;
}

const QUERY = '{ groups { count } }';
const MUTATION = 'mutation { groupCreate(input: { name: "Scoped", path: "scoped" }) { group { id } errors } }';

describe('token scopes (api, read_api, read_user, sudo, read_registry)', () => {
  // [scope, GET /groups, POST /groups, GET /user, GraphQL query, GraphQL mutation]
  const MATRIX: [string, number, number, number, string, string][] = [
    ['api', 200, 201, 200, 'ok', 'ok'],
    ['read_api', 200, 403, 200, 'ok', 'FORBIDDEN'],
    ['read_user', 403, 403, 200, 'FORBIDDEN', 'FORBIDDEN'],
    ['sudo', 403, 403, 403, 'FORBIDDEN', 'FORBIDDEN'],
    ['read_registry', 403, 403, 403, 'FORBIDDEN', 'FORBIDDEN'],
  ];

  for (const impersonation of [false, true]) {
    it.each(MATRIX)(
      `${impersonation ? 'impersonation' : 'personal'} token with %s: GET %i, write %i, GET /user %i, query %s, mutation %s`,
      async (scope, get, write, me, query, mutation) => {
        const u = await createUser(t);
        const token = await tokenFor(t, u.id, [scope], impersonation);
        const g = await createGroup(t, { visibility: 'public' });
        const list = await api(t, token).get('/api/v4/groups');
        expect(list.status).toBe(get);
        if (get === 403) expect(list.body).toEqual(INSUFFICIENT);
        const created = await api(t, token)
          .post('/api/v4/groups')
          .send({ name: `G${g.id}`, path: `g-${g.id}` });
        expect(created.status).toBe(write);
        if (write === 403) expect(created.body).toEqual(INSUFFICIENT);
        expect((await api(t, token).get('/api/v4/user')).status).toBe(me);
        const q = await api(t, token).graphql(QUERY);
        expect(q.body.errors?.[0]?.extensions?.code ?? 'ok').toBe(query);
        const m = await api(t, token).graphql(MUTATION);
        expect(m.body.errors?.[0]?.extensions?.code ?? 'ok').toBe(mutation);
      },
    );
  }

  it('read_user reads GET /users and GET /users/:id, and the GraphQL currentUser query', async () => {
    const u = await createUser(t);
    const token = await tokenFor(t, u.id, ['read_user']);
    expect((await api(t, token).get('/api/v4/users')).status).toBe(200);
    expect((await api(t, token).get(`/api/v4/users/${u.id}`)).status).toBe(200);
    expect((await api(t, token).graphql('{ currentUser { username } }')).body.data.currentUser.username).toBe(
      u.username,
    );
  });

  it('a read-only token of an admin cannot create users or mint tokens for others', async () => {
    const admin = await createUser(t, { admin: true });
    const other = await createUser(t);
    for (const scope of ['read_user', 'read_registry', 'read_api']) {
      const token = await tokenFor(t, admin.id, [scope]);
      const user = await api(t, token)
        .post('/api/v4/users')
        .send({ email: 'x@example.com', password: 'password123', name: 'X', username: 'x' });
      expect([scope, user.status, user.body]).toEqual([scope, 403, INSUFFICIENT]);
      const minted = await api(t, token)
        .post(`/api/v4/users/${other.id}/impersonation_tokens`)
        .send({ name: 'x', scopes: ['api'] });
      expect([scope, minted.status]).toEqual([scope, 403]);
    }
  });

  it('scope is checked before the role: a read_api token of a non-admin on an admin write is insufficient_scope', async () => {
    const u = await createUser(t);
    const token = await tokenFor(t, u.id, ['read_api']);
    const res = await api(t, token).delete(`/api/v4/users/${u.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(INSUFFICIENT);
  });

  it('offers read_api when creating an impersonation token', async () => {
    const u = await createUser(t);
    const res = await api(t, ROOT_TOKEN)
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'ro', scopes: ['read_api'] });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(['read_api']);
    expect((await api(t, res.body.token).get('/api/v4/groups')).status).toBe(200);
    expect((await api(t, res.body.token).post('/api/v4/groups').send({ name: 'No', path: 'no' })).status).toBe(403);
  });
});

describe('Sudo (header or parameter)', () => {
  it('lets an admin token with the sudo scope act as another user, by username or id', async () => {
    const u = await createUser(t);
    const byName = await api(t, ROOT_TOKEN).get('/api/v4/user').set('Sudo', u.username);
    expect([byName.status, byName.body.username]).toEqual([200, u.username]);
    const byId = await api(t, ROOT_TOKEN).get(`/api/v4/user?sudo=${u.id}`);
    expect([byId.status, byId.body.username]).toEqual([200, u.username]);
    expect(byId.body.is_admin).toBeUndefined();
    const created = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .send({ name: 'Mine', path: 'mine', sudo: u.username });
    expect(created.status).toBe(201);
    const members = await api(t, ROOT_TOKEN).get(`/api/v4/groups/${created.body.id}/members`);
    expect(members.body.map((m: { username: string }) => m.username)).toEqual([u.username]);
  });

  it('answers GitLab’s errors: 403 non-admin, 403 insufficient_scope without sudo scope, 404 unknown user, 401 anonymous', async () => {
    const u = await createUser(t);
    const admin = await createUser(t, { admin: true });
    const notAdmin = await api(t, u.token).get('/api/v4/user').set('Sudo', admin.username);
    expect([notAdmin.status, notAdmin.body]).toEqual([403, { message: '403 Forbidden - Must be admin to use sudo' }]);
    const noScope = await api(t, admin.token).get('/api/v4/user').set('Sudo', u.username);
    expect([noScope.status, noScope.body]).toEqual([403, { ...INSUFFICIENT, scope: 'sudo' }]);
    const unknown = await api(t, ROOT_TOKEN).get('/api/v4/user').set('Sudo', 'nobody');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { message: "404 User with ID or username 'nobody' Not Found" },
    ]);
    const anonymous = await api(t).get('/api/v4/groups').set('Sudo', u.username);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
  });

  it('keeps the token’s scopes: sudo with a read_api + sudo token cannot write', async () => {
    const u = await createUser(t);
    const admin = await createUser(t, { admin: true });
    const token = await tokenFor(t, admin.id, ['read_api', 'sudo']);
    expect((await api(t, token).get('/api/v4/user').set('Sudo', u.username)).body.username).toBe(u.username);
    expect(
      (await api(t, token).post('/api/v4/groups').set('Sudo', u.username).send({ name: 'N', path: 'n' })).body,
    ).toEqual(INSUFFICIENT);
  });
});
