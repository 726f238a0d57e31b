import { scryptSync } from 'node:crypto';
import { createUser, queryOne } from '../support/factories';
import { USER_ADMIN_KEYS, USER_BASIC_KEYS, USER_KEYS, USER_PUBLIC_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('GET /user', () => {
  it('needs a token and shows UserPublic (plus is_admin for admins)', async () => {
    expect((await api(t).get('/api/v4/user')).body).toEqual({ message: '401 Unauthorized' });
    const u = await createUser(t, { username: 'jane' });
    const mine = await api(t, u.token).get('/api/v4/user');
    expect(keys(mine.body)).toEqual(USER_PUBLIC_KEYS);
    expect(mine.body).toMatchObject({
      id: u.id,
      username: 'jane',
      email: 'jane@example.com',
      web_url: 'http://gitlab.test/jane',
      state: 'active',
    });
    expect(keys((await api(t, ROOT_TOKEN).get('/api/v4/user')).body)).toEqual(USER_ADMIN_KEYS);
  });
});

describe('GET /users', () => {
  it('lists users (basic form; admin form for admins), filters by search, username and active, paginates', async () => {
    await createUser(t, { username: 'alice', name: 'Alice A' });
    const bob = await createUser(t, { username: 'bob', name: 'Bob B' });
    await t.orm.em.getConnection().execute(`update users set state = 'blocked' where id = ?`, [bob.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    const all = await api(t).get('/api/v4/users');
    expect(all.status).toBe(200);
    expect(all.headers['x-total']).toBe('3');
    expect(keys(all.body[0])).toEqual(USER_BASIC_KEYS.sort());
    expect(keys((await api(t, ROOT_TOKEN).get('/api/v4/users')).body[0])).toEqual(USER_ADMIN_KEYS);
    expect((await api(t).get('/api/v4/users?search=ALI')).body.map((u: { username: string }) => u.username)).toEqual([
      'alice',
    ]);
    expect((await api(t).get('/api/v4/users?username=BOB')).body.map((u: { username: string }) => u.username)).toEqual([
      'bob',
    ]);
    expect((await api(t).get('/api/v4/users?active=true')).body.map((u: { username: string }) => u.username)).toEqual([
      'root',
      'alice',
    ]);
    expect((await api(t).get('/api/v4/users?active=nope')).body).toEqual({ error: 'active is invalid' });
  });

  it('issues the same number of SQL statements for 1 and 20 users', async () => {
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/users').expect(200));
    for (let i = 0; i < 19; i += 1) await createUser(t);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/users').expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('GET /users/:id', () => {
  it('shows the User form, hides email from others, 404 for unknown ids', async () => {
    const u = await createUser(t);
    const res = await api(t).get(`/api/v4/users/${u.id}`);
    expect(keys(res.body)).toEqual(USER_KEYS);
    expect(res.body).not.toHaveProperty('email');
    expect((await api(t).get('/api/v4/users/4242')).body).toEqual({ message: '404 User Not Found' });
    expect((await api(t).get('/api/v4/users/99999999999')).status).toBe(404);
    expect((await api(t).get('/api/v4/users/abc')).body).toEqual({ error: 'id is invalid' });
  });
});

describe('POST /users', () => {
  it('is for admins only: 401 anonymous, 403 users', async () => {
    const u = await createUser(t);
    expect((await api(t).post('/api/v4/users').send({})).status).toBe(401);
    expect((await api(t, u.token).post('/api/v4/users').send({})).body).toEqual({ message: '403 Forbidden' });
  });

  it('creates a user with a personal namespace and answers 201 UserPublic', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .type('form')
      .send(
        'email=new@example.com&username=newbie&name=New+Bie&password=secret123&can_create_group=false&projects_limit=5&external=True',
      );
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual(USER_PUBLIC_KEYS);
    expect(res.body).toMatchObject({
      username: 'newbie',
      email: 'new@example.com',
      can_create_group: false,
      projects_limit: 5,
      external: true,
    });
    const ns = await queryOne<{ full_path: string; kind: string }>(
      t,
      `select full_path, kind from namespaces where owner_id = ?`,
      [res.body.id],
    );
    expect(ns).toEqual({ full_path: 'newbie', kind: 'user' });
    const stored = await queryOne<{ password_digest: string }>(t, 'select password_digest from users where id = ?', [
      res.body.id,
    ]);
    expect(stored?.password_digest).toMatch(/^scrypt\$/);
  });

  it('reset_password=true instead of a password: created with a random password (GitLab mails a reset link; no mail here), on both surfaces', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ email: 'reset@example.com', name: 'Reset', username: 'reset', reset_password: true })
      .expect(201);
    const stored = await queryOne<{ password_digest: string }>(t, 'select password_digest from users where id = ?', [
      res.body.id,
    ]);
    expect(stored?.password_digest).toMatch(/^scrypt\$/);
    // With a password too, reset_password wins (GitLab's force_random_password): the given one does not open it.
    const both = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({
        email: 'both@example.com',
        name: 'Both',
        username: 'both',
        password: 'secret123',
        reset_password: 'true',
      })
      .expect(201);
    const a = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ email: 'plain@example.com', name: 'Plain', username: 'plain', password: 'secret123' })
      .expect(201);
    const opens = async (id: number, password: string) => {
      const [, salt, hash] = (await queryOne<{ password_digest: string }>(
        t,
        'select password_digest from users where id = ?',
        [id],
      ))!.password_digest.split('$');
      return scryptSync(password, Buffer.from(salt, 'base64url'), 32).toString('base64url') === hash;
    };
    expect(await opens(a.body.id, 'secret123')).toBe(true);
    expect(await opens(both.body.id, 'secret123')).toBe(false);
    // reset_password=false passes Grape's at_least_one_of; the model then wants a password.
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post('/api/v4/users')
          .send({ email: 'f@example.com', name: 'F', username: 'f', reset_password: false })
      ).body,
    ).toEqual({
      message: { password: ["can't be blank"] },
    });
    // A password sent beside reset_password=true is replaced, so not validated.
    await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ email: 's@example.com', name: 'S', username: 'short', password: 'x', reset_password: true })
      .expect(201);
    const gql = await api(t, ROOT_TOKEN).graphql(
      'mutation { userCreate(input: { email: "g@example.com", name: "G", username: "gql", resetPassword: true }) { user { username } errors } }',
    );
    expect(gql.body).toEqual({ data: { userCreate: { user: { username: 'gql' }, errors: [] } } });
  });

  it('validates: missing params, short password, bad username, duplicates as 409', async () => {
    // GitLab 10.3: `optional :password; optional :reset_password; at_least_one_of :password, :reset_password`, in declaration order.
    expect((await api(t, ROOT_TOKEN).post('/api/v4/users').send({ name: 'x' })).body).toEqual({
      error:
        'email is missing, password, reset_password are missing, at least one parameter must be provided, username is missing',
    });
    const base = { email: 'a@b.io', name: 'A', username: 'abc', password: 'secret123' };
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post('/api/v4/users')
          .send({ ...base, password: 'short' })
      ).body,
    ).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post('/api/v4/users')
          .send({ ...base, username: '-x' })
      ).status,
    ).toBe(400);
    expect((await api(t, ROOT_TOKEN).post('/api/v4/users').send(base)).status).toBe(201);
    const dupEmail = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ ...base, username: 'other' });
    expect([dupEmail.status, dupEmail.body]).toEqual([409, { message: 'Email has already been taken' }]);
    const dupName = await api(t, ROOT_TOKEN)
      .post('/api/v4/users')
      .send({ ...base, email: 'z@b.io', username: 'ABC' });
    expect([dupName.status, dupName.body]).toEqual([409, { message: 'Username has already been taken' }]);
  });
});

describe('PUT /users/:id and DELETE /users/:id', () => {
  it('updates fields and renames the personal namespace', async () => {
    const u = await createUser(t, { username: 'before' });
    const res = await api(t, ROOT_TOKEN)
      .put(`/api/v4/users/${u.id}`)
      .send({ username: 'after', name: 'Renamed', admin: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'after', name: 'Renamed' });
    expect((await api(t, u.token).get('/api/v4/user')).body.is_admin).toBe(true);
    expect(
      (await queryOne<{ full_path: string }>(t, 'select full_path from namespaces where owner_id = ?', [u.id]))
        ?.full_path,
    ).toBe('after');
    expect((await api(t, u.token).put(`/api/v4/users/424242`).send({ name: 'x' })).body).toEqual({
      message: '404 User Not Found',
    });
  });

  it('deletes a user with their namespace and projects; 204; tokens stop working', async () => {
    const u = await createUser(t);
    await api(t, u.token).post('/api/v4/projects').send({ name: 'mine' }).expect(201);
    const res = await api(t, ROOT_TOKEN).delete(`/api/v4/users/${u.id}`);
    expect(res.status).toBe(204);
    expect((await api(t, u.token).get('/api/v4/user')).status).toBe(401);
    expect(Number((await queryOne<{ n: string }>(t, 'select count(*) as n from projects'))?.n)).toBe(0);
    expect((await api(t, (await createUser(t)).token).delete(`/api/v4/users/1`)).status).toBe(403);
  });
});
