import { createUser, queryOne } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
/** GitLab 10.3's Entities::Email. */
const EMAIL_KEYS = ['email', 'id'];

describe('POST /users/:id/emails', () => {
  it('adds an address (201, Email) lower-cased and stripped, stored unconfirmed, listed for admins', async () => {
    const u = await createUser(t);
    const res = await admin()
      .post(`/api/v4/users/${u.id}/emails`)
      .type('form')
      .send({ email: '  Work.Addr@Example.COM ' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(keys(res.body)).toEqual(EMAIL_KEYS);
    expect(res.body.email).toBe('work.addr@example.com');
    expect(await queryOne(t, 'select user_id, confirmed_at from emails where id = ?', [res.body.id])).toEqual({
      user_id: u.id,
      confirmed_at: null,
    });
    const list = await admin().get(`/api/v4/users/${u.id}/emails`).expect(200);
    expect(list.headers['x-total']).toBe('1');
    expect(list.body).toEqual([res.body]);
  });

  it('answers GitLab 10.3 validation errors (missing, blank, format, taken by an address or a primary e-mail)', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const post = (body: Record<string, unknown>, id = a.id) => admin().post(`/api/v4/users/${id}/emails`).send(body);
    expect((await post({})).body).toEqual({ error: 'email is missing' });
    expect((await post({ email: '' })).body).toEqual({ message: { email: ["can't be blank", 'is invalid'] } });
    expect((await post({ email: 'no-at-sign' })).body).toEqual({ message: { email: ['is invalid'] } });
    expect((await post({ email: 'two@at@example.com' })).body).toEqual({ message: { email: ['is invalid'] } });
    expect((await post({ email: `${'x'.repeat(250)}@example.com` })).body).toEqual({
      message: { email: ['is too long (maximum is 255 characters)'] },
    });
    // Another user's primary e-mail, and the user's own (GitLab's Email#unique_email).
    expect((await post({ email: `${b.username}@EXAMPLE.com` })).body).toEqual({
      message: { email: ['has already been taken'] },
    });
    expect((await post({ email: `${a.username}@example.com` })).body).toEqual({
      message: { email: ['has already been taken'] },
    });
    await post({ email: 'shared@example.com' }).expect(201);
    const taken = await post({ email: 'Shared@Example.com' }, b.id);
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { email: ['has already been taken'] } });
    expect((await api(t, a.token).post('/api/v4/user/emails').send({ email: 'shared@example.com' })).body).toEqual({
      message: { email: ['has already been taken'] },
    });
    expect((await queryOne<{ n: string }>(t, 'select count(*)::text as n from emails'))?.n).toBe('1');
  });

  it("lets one of concurrent adds of the same address win; the others get the model's 400", async () => {
    const users = [await createUser(t), await createUser(t), await createUser(t)];
    const results = await Promise.all(
      users.map((u) => api(t, u.token).post('/api/v4/user/emails').send({ email: 'race@example.com' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    for (const r of results.filter((x) => x.status === 400))
      expect(r.body).toEqual({ message: { email: ['has already been taken'] } });
  });

  it('is for admins (403; 401 anonymous); unknown users are 404 User Not Found', async () => {
    const u = await createUser(t);
    expect((await api(t).post(`/api/v4/users/${u.id}/emails`).send({ email: 'x@example.com' })).status).toBe(401);
    expect((await api(t, u.token).post(`/api/v4/users/${u.id}/emails`).send({ email: 'x@example.com' })).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().post('/api/v4/users/4242/emails').send({ email: 'x@example.com' })).body).toEqual({
      message: '404 User Not Found',
    });
  });

  it('records audit events on the user (add, remove; the address as target)', async () => {
    const u = await createUser(t);
    await t.orm.em.getConnection().execute('delete from audit_events');
    const e = (await admin().post(`/api/v4/users/${u.id}/emails`).send({ email: 'alt@example.com' }).expect(201)).body;
    await admin().delete(`/api/v4/users/${u.id}/emails/${e.id}`).expect(204);
    const events = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${u.id}`).expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    const target = {
      target_type: 'Email',
      target_id: String(e.id),
      target_details: 'alt@example.com',
      entity_path: u.username,
    };
    expect(events.map((x) => x.details)).toEqual([
      expect.objectContaining({ remove: 'email', ...target }),
      expect.objectContaining({ add: 'email', ...target }),
    ]);
  });
});

describe('GET /users/:id/emails', () => {
  it('is for admins, paginates by id, 404 for unknown users', async () => {
    const u = await createUser(t);
    for (const e of ['a@example.com', 'b@example.com', 'c@example.com'])
      await admin().post(`/api/v4/users/${u.id}/emails`).send({ email: e }).expect(201);
    expect((await api(t).get(`/api/v4/users/${u.id}/emails`)).status).toBe(401);
    expect((await api(t, u.token).get(`/api/v4/users/${u.id}/emails`)).body).toEqual({ message: '403 Forbidden' });
    const page = await admin().get(`/api/v4/users/${u.id}/emails?per_page=2`).expect(200);
    expect(page.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '2', 'x-next-page': '2' });
    expect(page.body.map((e: { email: string }) => e.email)).toEqual(['a@example.com', 'b@example.com']);
    expect((await admin().get('/api/v4/users/4242/emails')).body).toEqual({ message: '404 User Not Found' });
  });

  it('issues the same number of SQL statements for 1 and 20 addresses', async () => {
    const u = await createUser(t);
    const add = (i: number) =>
      t.orm.em
        .getConnection()
        .execute('insert into emails (user_id, email) values (?, ?)', [u.id, `e${i}@example.com`]);
    await add(0);
    const one = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/emails`).expect(200));
    for (let i = 1; i < 20; i += 1) await add(i);
    const twenty = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/emails`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('DELETE /users/:id/emails/:email_id', () => {
  it("deletes with 204 (the address is free again); another user's address is 404 Email Not Found", async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const e = (await admin().post(`/api/v4/users/${a.id}/emails`).send({ email: 'alt@example.com' }).expect(201)).body;
    expect((await api(t, a.token).delete(`/api/v4/users/${a.id}/emails/${e.id}`)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().delete(`/api/v4/users/${b.id}/emails/${e.id}`)).body).toEqual({
      message: '404 Email Not Found',
    });
    expect((await admin().delete(`/api/v4/users/${a.id}/emails/99999999999`)).body).toEqual({
      message: '404 Email Not Found',
    });
    expect((await admin().delete(`/api/v4/users/${a.id}/emails/x`)).body).toEqual({ error: 'email_id is invalid' });
    const del = await admin().delete(`/api/v4/users/${a.id}/emails/${e.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await admin().get(`/api/v4/users/${a.id}/emails`)).body).toEqual([]);
    await admin().post(`/api/v4/users/${b.id}/emails`).send({ email: 'alt@example.com' }).expect(201);
  });

  it("goes with its user: deleting the user frees the user's addresses", async () => {
    const u = await createUser(t);
    await admin().post(`/api/v4/users/${u.id}/emails`).send({ email: 'gone@example.com' }).expect(201);
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    expect(await queryOne(t, 'select id from emails')).toBeUndefined();
  });
});

describe('/user/emails', () => {
  it("lists, reads, adds and deletes the caller's own addresses; 401 anonymous", async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const theirs = (
      await admin().post(`/api/v4/users/${other.id}/emails`).send({ email: 'theirs@example.com' }).expect(201)
    ).body;
    const mine = await api(t, me.token).post('/api/v4/user/emails').send({ email: 'Mine@Example.com' });
    expect(mine.status).toBe(201);
    expect(mine.body).toEqual({ id: mine.body.id, email: 'mine@example.com' });
    const list = await api(t, me.token).get('/api/v4/user/emails').expect(200);
    expect(list.headers['x-total']).toBe('1');
    expect(list.body).toEqual([mine.body]);
    expect((await api(t, me.token).get(`/api/v4/user/emails/${mine.body.id}`)).body).toEqual(mine.body);
    expect((await api(t, me.token).get(`/api/v4/user/emails/${theirs.id}`)).body).toEqual({
      message: '404 Email Not Found',
    });
    expect((await api(t, me.token).delete(`/api/v4/user/emails/${theirs.id}`)).body).toEqual({
      message: '404 Email Not Found',
    });
    expect((await api(t, me.token).post('/api/v4/user/emails').send({})).body).toEqual({ error: 'email is missing' });
    for (const res of [
      await api(t).get('/api/v4/user/emails'),
      await api(t).get(`/api/v4/user/emails/${mine.body.id}`),
      await api(t).post('/api/v4/user/emails').send({ email: 'x@example.com' }),
      await api(t).delete(`/api/v4/user/emails/${mine.body.id}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
    expect((await api(t, me.token).delete(`/api/v4/user/emails/${mine.body.id}`)).status).toBe(204);
    expect((await api(t, me.token).get('/api/v4/user/emails')).body).toEqual([]);
    expect((await admin().get(`/api/v4/users/${other.id}/emails`)).body).toEqual([theirs]);
  });
});

describe("users' primary e-mails and secondary addresses (GitLab 10.3's User#unique_email, update_emails_with_primary_email)", () => {
  it("refuses another user's secondary address as a primary e-mail (400, the model's message)", async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    await admin().post(`/api/v4/users/${a.id}/emails`).send({ email: 'taken@example.com' }).expect(201);
    const created = await admin()
      .post('/api/v4/users')
      .send({ email: 'Taken@example.com', password: 'secret123', name: 'N', username: 'newbie' });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: { email: ['has already been taken'] } });
    expect((await admin().put(`/api/v4/users/${b.id}`).send({ email: 'taken@example.com' })).body).toEqual({
      message: { email: ['has already been taken'] },
    });
  });

  it('keeps the previous primary e-mail as a secondary address, and drops the new primary from them', async () => {
    const u = await createUser(t);
    await admin().post(`/api/v4/users/${u.id}/emails`).send({ email: 'next@example.com' }).expect(201);
    await admin().put(`/api/v4/users/${u.id}`).send({ email: 'next@example.com' }).expect(200);
    const list = (await admin().get(`/api/v4/users/${u.id}/emails`).expect(200)).body as { email: string }[];
    expect(list.map((e) => e.email)).toEqual([`${u.username}@example.com`]);
    await admin().put(`/api/v4/users/${u.id}`).send({ email: 'Third@Example.com' }).expect(200);
    expect(
      ((await admin().get(`/api/v4/users/${u.id}/emails`)).body as { email: string }[]).map((e) => e.email),
    ).toEqual([`${u.username}@example.com`, 'next@example.com']);
    await admin().put(`/api/v4/users/${u.id}`).send({ name: 'Renamed' }).expect(200);
    expect((await admin().get(`/api/v4/users/${u.id}/emails`)).body).toHaveLength(2);
  });
});
