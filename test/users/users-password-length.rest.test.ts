import { createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GitLab 10.3 (Devise's password_length 8..128): a password longer than 128 characters is refused on create and update. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const TOO_LONG = { message: { password: ['is too long (maximum is 128 characters)'] } };
const base = { email: 'long@example.com', name: 'Long', username: 'long' };

describe('POST /users', () => {
  it('answers 400 is too long for 129 and 1,000,000 characters, creates nothing; 128 characters are fine', async () => {
    for (const password of ['p'.repeat(129), 'p'.repeat(1_000_000)]) {
      const res = await admin()
        .post('/api/v4/users')
        .send({ ...base, password });
      expect([res.status, res.body]).toEqual([400, TOO_LONG]);
    }
    expect(await queryOne(t, `select id from users where username = 'long'`)).toBeUndefined();
    expect(
      (
        await admin()
          .post('/api/v4/users')
          .send({ ...base, password: 'p'.repeat(128) })
      ).status,
    ).toBe(201);
  });

  it('reports the password among the other invalid fields, as the minimum', async () => {
    const res = await admin()
      .post('/api/v4/users')
      .send({ ...base, email: 'not-an-email', password: 'p'.repeat(129) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: { email: ['is invalid'], password: ['is too long (maximum is 128 characters)'] },
    });
  });
});

describe('PUT /users/:id', () => {
  it('answers 400 is too long for 129 characters and keeps the stored password; 128 characters are fine', async () => {
    const u = await createUser(t);
    const digest = async () =>
      (await queryOne<{ d: string | null }>(t, 'select password_digest as d from users where id = ?', [u.id]))?.d;
    const before = await digest();
    const res = await admin()
      .put(`/api/v4/users/${u.id}`)
      .send({ password: 'p'.repeat(129) });
    expect([res.status, res.body]).toEqual([400, TOO_LONG]);
    expect(await digest()).toBe(before);
    expect(
      (
        await admin()
          .put(`/api/v4/users/${u.id}`)
          .send({ password: 'p'.repeat(128) })
      ).status,
    ).toBe(200);
    expect(await digest()).toMatch(/^scrypt\$/);
  });
});

describe('GraphQL createUser and updateUser', () => {
  it('refuse a 129-character password with the same field message in the payload errors', async () => {
    const long = 'p'.repeat(129);
    const created = await admin()
      .graphql(
        'mutation($p: String) { userCreate(input: { email: "g@q.l", username: "gql", name: "G", password: $p }) { user { id } errors } }',
        { p: long },
      )
      .expect(200);
    expect(created.body).toEqual({
      data: { userCreate: { user: null, errors: ['Password is too long (maximum is 128 characters)'] } },
    });
    expect(await queryOne(t, `select id from users where username = 'gql'`)).toBeUndefined();
    const u = await createUser(t);
    const updated = await admin()
      .graphql(`mutation($p: String) { userUpdate(input: { id: ${u.id}, password: $p }) { user { id } errors } }`, {
        p: long,
      })
      .expect(200);
    expect(updated.body).toEqual({
      data: { userUpdate: { user: null, errors: ['Password is too long (maximum is 128 characters)'] } },
    });
  });
});
