import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createUser } from '../support/factories';

/** GitLab 10.3's GET /users filters `external` (administrators only) and `created_after` / `created_before`. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const usernames = (body: { username: string }[]) => body.map((u) => u.username);

describe('GET /users filters', () => {
  it('external: only external users, for administrators; 403 for others, 401 anonymous', async () => {
    await createUser(t, { username: 'outside', external: true });
    const inside = await createUser(t, { username: 'inside' });
    expect(usernames((await admin().get('/api/v4/users?external=true').expect(200)).body)).toEqual(['outside']);
    expect(usernames((await admin().get('/api/v4/users?external=false').expect(200)).body)).toEqual([
      'root',
      'outside',
      'inside',
    ]);
    expect((await api(t, inside.token).get('/api/v4/users?external=true').expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t).get('/api/v4/users?external=true').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await admin().get('/api/v4/users?external=maybe').expect(400)).body).toEqual({
      error: 'external is invalid',
    });
    const gql = await admin()
      .post('/graphql')
      .send({ query: '{ users(external: true) { nodes { username } } }' })
      .expect(200);
    expect(gql.body.data.users.nodes).toEqual([{ username: 'outside' }]);
  });

  it('created_after / created_before: an inclusive window on the creation time, invalid times 400', async () => {
    const old = await createUser(t, { username: 'old' });
    const mid = await createUser(t, { username: 'mid' });
    const recent = await createUser(t, { username: 'recent' });
    const conn = t.orm.em.getConnection();
    await conn.execute(`update users set created_at = '2020-01-01T00:00:00Z' where id = ?`, [old.id]);
    await conn.execute(`update users set created_at = '2021-06-15T12:00:00Z' where id = ?`, [mid.id]);
    await conn.execute(`update users set created_at = '2022-12-31T23:59:59Z' where id in (?, 1)`, [recent.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    expect(usernames((await admin().get('/api/v4/users?created_after=2021-01-01T00:00:00Z').expect(200)).body)).toEqual(
      ['root', 'mid', 'recent'],
    );
    expect(
      usernames((await admin().get('/api/v4/users?created_before=2021-06-15T12:00:00Z').expect(200)).body),
    ).toEqual(['old', 'mid']);
    expect(
      usernames(
        (await admin().get('/api/v4/users?created_after=2021-01-01&created_before=2021-12-31').expect(200)).body,
      ),
    ).toEqual(['mid']);
    expect((await admin().get('/api/v4/users?created_after=yesterday').expect(400)).body).toEqual({
      error: 'created_after is invalid',
    });
    expect((await admin().get('/api/v4/users?created_before=2021-02-30').expect(400)).body).toEqual({
      error: 'created_before is invalid',
    });
  });
});
