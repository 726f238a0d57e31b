import crypto from 'node:crypto';
import { createUser, queryOne } from '../support/factories';
import { keys, USER_PUBLIC_KEYS } from '../support/keys';
import { SSH_KEYS } from '../support/ssh-keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
/** GitLab 10.3.4+'s Entities::SSHKey (10.3.0–10.3.3 also had can_push). */
const SSH_KEY_KEYS = ['created_at', 'id', 'key', 'title'];
const FORBIDDEN_ALL = 'type is forbidden. Must be RSA, DSA, ECDSA, or ED25519';

const setSettings = (body: Record<string, unknown>) =>
  admin().put('/api/v4/application/settings').send(body).expect(200);

describe('POST /users/:id/keys', () => {
  it('adds a key (201, SSHKey), stores its MD5 fingerprint, and lists it for admins', async () => {
    const u = await createUser(t);
    const res = await admin()
      .post(`/api/v4/users/${u.id}/keys`)
      .type('form')
      .send({ key: SSH_KEYS.rsa2048.key, title: 'laptop' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(keys(res.body)).toEqual(SSH_KEY_KEYS);
    expect(res.body).toMatchObject({ title: 'laptop', key: SSH_KEYS.rsa2048.key });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = await queryOne<{ fingerprint: string; user_id: number }>(
      t,
      'select fingerprint, user_id from keys where id = ?',
      [res.body.id],
    );
    expect(row).toEqual({ fingerprint: SSH_KEYS.rsa2048.fingerprint, user_id: u.id });
    const list = await admin().get(`/api/v4/users/${u.id}/keys`).expect(200);
    expect(list.headers['x-total']).toBe('1');
    expect(list.body).toEqual([res.body]);
  });

  it('reads every key type: RSA, DSA, ECDSA (256/384/521) and ED25519', async () => {
    const u = await createUser(t);
    for (const k of [
      SSH_KEYS.rsa1024,
      SSH_KEYS.dsa,
      SSH_KEYS.ec256,
      SSH_KEYS.ec384,
      SSH_KEYS.ec521,
      SSH_KEYS.ed25519,
    ]) {
      const res = await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: k.key, title: 'k' });
      expect(res.status).toBe(201);
      expect(
        (await queryOne<{ fingerprint: string }>(t, 'select fingerprint from keys where id = ?', [res.body.id]))
          ?.fingerprint,
      ).toBe(k.fingerprint);
    }
    expect((await admin().get(`/api/v4/users/${u.id}/keys`)).headers['x-total']).toBe('6');
  });

  it("removes line breaks and surrounding blanks as GitLab's Key#key=, keeping the comment", async () => {
    const u = await createUser(t);
    const k = SSH_KEYS.ed25519.key;
    const sent = `  ${k.slice(0, 40)}\r\n${k.slice(40, 60)}\n${k.slice(60)} \n`;
    const res = await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: sent, title: 'wrapped' }).expect(201);
    expect(res.body.key).toBe(k);
    expect(k.endsWith(' ed@example.com')).toBe(true);
  });

  it('answers GitLab 10.3 validation errors', async () => {
    const u = await createUser(t);
    const post = (body: Record<string, unknown>) => admin().post(`/api/v4/users/${u.id}/keys`).send(body);
    expect((await post({})).body).toEqual({ error: 'key is missing, title is missing' });
    expect((await post({ key: SSH_KEYS.ed25519.key })).body).toEqual({ error: 'title is missing' });
    const invalid = await post({ key: 'ssh-rsa an-invalid-key==', title: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { fingerprint: ['cannot be generated'], key: [FORBIDDEN_ALL] } });
    expect((await post({ key: 'not a key', title: 'x' })).body).toEqual({
      message: { key: ['is invalid', FORBIDDEN_ALL], fingerprint: ['cannot be generated'] },
    });
    expect((await post({ key: '', title: '' })).body).toEqual({
      message: {
        title: ["can't be blank"],
        key: ["can't be blank", 'is invalid', FORBIDDEN_ALL],
        fingerprint: ['cannot be generated'],
      },
    });
    expect((await post({ key: SSH_KEYS.ed25519.key, title: 'x'.repeat(256) })).body).toEqual({
      message: { title: ['is too long (maximum is 255 characters)'] },
    });
    expect((await post({ key: `${SSH_KEYS.ed25519.key} ${'c'.repeat(5000)}`, title: 'x' })).body).toEqual({
      message: { key: ['is too long (maximum is 5000 characters)'] },
    });
    // A truncated blob, a certificate-less blob of another type, an ED25519 key of the wrong length: no key.
    const truncated = SSH_KEYS.rsa2048.key.split(' ')[1].slice(0, 100);
    expect((await post({ key: `ssh-rsa ${truncated}`, title: 'x' })).body.message.fingerprint).toEqual([
      'cannot be generated',
    ]);
    expect((await queryOne<{ n: string }>(t, 'select count(*)::text as n from keys'))?.n).toBe('0');
  });

  it('refuses a key whose fingerprint is taken, by anyone on the instance (comment or not)', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    await admin().post(`/api/v4/users/${a.id}/keys`).send({ key: SSH_KEYS.ec256.key, title: 'a' }).expect(201);
    const bare = SSH_KEYS.ec256.key.split(' ').slice(0, 2).join(' ');
    const again = await admin()
      .post(`/api/v4/users/${b.id}/keys`)
      .send({ key: `${bare} other-comment`, title: 'b' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
    expect((await api(t, a.token).post('/api/v4/user/keys').send({ key: bare, title: 'again' })).body).toEqual({
      message: { fingerprint: ['has already been taken'] },
    });
  });

  it("lets one of concurrent adds of the same key win; the others get the model's 400", async () => {
    const [a, b, c] = [await createUser(t), await createUser(t), await createUser(t)];
    const results = await Promise.all(
      [a, b, c].map((u) => api(t, u.token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ec384.key, title: 'race' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    for (const r of results.filter((x) => x.status === 400))
      expect(r.body).toEqual({ message: { fingerprint: ['has already been taken'] } });
    expect((await queryOne<{ n: string }>(t, 'select count(*)::text as n from keys'))?.n).toBe('1');
  });

  it('enforces the *_key_restriction settings with GitLab messages (0 any size, -1 forbidden, N minimum bits)', async () => {
    const u = await createUser(t);
    const post = (k: { key: string }) => admin().post(`/api/v4/users/${u.id}/keys`).send({ key: k.key, title: 't' });
    await setSettings({ rsa_key_restriction: 2048, dsa_key_restriction: -1, ecdsa_key_restriction: 384 });
    expect((await post(SSH_KEYS.rsa1024)).body).toEqual({ message: { key: ['must be at least 2048 bits'] } });
    expect((await post(SSH_KEYS.dsa)).body).toEqual({
      message: { key: ['type is forbidden. Must be RSA, ECDSA, or ED25519'] },
    });
    expect((await post(SSH_KEYS.ec256)).body).toEqual({ message: { key: ['must be at least 384 bits'] } });
    expect((await post(SSH_KEYS.ec521)).status).toBe(201);
    expect((await post(SSH_KEYS.rsa2048)).status).toBe(201);
    await setSettings({ rsa_key_restriction: -1, ecdsa_key_restriction: -1, ed25519_key_restriction: 0 });
    expect((await post(SSH_KEYS.rsa2048b)).body).toEqual({ message: { key: ['type is forbidden. Must be ED25519'] } });
    await setSettings({ dsa_key_restriction: 0 });
    expect((await post(SSH_KEYS.rsa2048b)).body).toEqual({
      message: { key: ['type is forbidden. Must be DSA or ED25519'] },
    });
    expect((await post(SSH_KEYS.ed25519)).status).toBe(201);
  });

  it('is for admins (403; 401 anonymous); unknown users are 404 User Not Found', async () => {
    const u = await createUser(t);
    const body = { key: SSH_KEYS.ed25519.key, title: 't' };
    expect((await api(t).post(`/api/v4/users/${u.id}/keys`).send(body)).status).toBe(401);
    expect((await api(t, u.token).post(`/api/v4/users/${u.id}/keys`).send(body)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().post('/api/v4/users/4242/keys').send(body)).body).toEqual({ message: '404 User Not Found' });
    expect((await admin().post('/api/v4/users/99999999999/keys').send(body)).body).toEqual({
      message: '404 User Not Found',
    });
  });

  it('records an audit event on the user, in the write', async () => {
    const u = await createUser(t);
    await t.orm.em.getConnection().execute('delete from audit_events');
    const res = await admin()
      .post(`/api/v4/users/${u.id}/keys`)
      .send({ key: SSH_KEYS.ed25519.key, title: 'laptop' })
      .expect(201);
    await admin().delete(`/api/v4/users/${u.id}/keys/${res.body.id}`).expect(204);
    const events = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${u.id}`).expect(200)).body as {
      details: Record<string, unknown>;
      author_id: number;
    }[];
    expect(events.map((e) => e.details)).toEqual([
      expect.objectContaining({
        remove: 'ssh_key',
        target_type: 'Key',
        target_id: String(res.body.id),
        target_details: 'laptop',
        entity_path: u.username,
      }),
      expect.objectContaining({
        add: 'ssh_key',
        target_type: 'Key',
        target_id: String(res.body.id),
        target_details: 'laptop',
        entity_path: u.username,
      }),
    ]);
    expect(events[0].author_id).toBe(1);
  });
});

describe('GET /users/:id/keys', () => {
  it('is for admins, paginates by id, and is 404 for unknown users', async () => {
    const u = await createUser(t);
    for (const k of [SSH_KEYS.ed25519, SSH_KEYS.ed25519b, SSH_KEYS.ed25519c])
      await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: k.key, title: 'k' }).expect(201);
    expect((await api(t).get(`/api/v4/users/${u.id}/keys`)).status).toBe(401);
    expect((await api(t, u.token).get(`/api/v4/users/${u.id}/keys`)).body).toEqual({ message: '403 Forbidden' });
    const page = await admin().get(`/api/v4/users/${u.id}/keys?per_page=2&page=2`).expect(200);
    expect(page.headers).toMatchObject({ 'x-total': '3', 'x-total-pages': '2', 'x-page': '2', 'x-per-page': '2' });
    expect(page.body.map((k: { key: string }) => k.key)).toEqual([SSH_KEYS.ed25519c.key]);
    expect((await admin().get('/api/v4/users/4242/keys')).body).toEqual({ message: '404 User Not Found' });
    expect((await admin().get(`/api/v4/users/${(await createUser(t)).id}/keys`)).body).toEqual([]);
  });

  it('issues the same number of SQL statements for 1 and 20 keys', async () => {
    const u = await createUser(t);
    const add = (i: number) =>
      t.orm.em
        .getConnection()
        .execute(`insert into keys (user_id, title, key, fingerprint) values (?, 't', 'ssh-ed25519 x', ?)`, [
          u.id,
          `fp${i}`,
        ]);
    await add(0);
    const one = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/keys`).expect(200));
    for (let i = 1; i < 20; i += 1) await add(i);
    const twenty = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/keys`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('DELETE /users/:id/keys/:key_id', () => {
  it("deletes with 204; another user's key and unknown ids are 404 Key Not Found", async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    const k = (
      await admin().post(`/api/v4/users/${a.id}/keys`).send({ key: SSH_KEYS.ed25519.key, title: 't' }).expect(201)
    ).body;
    expect((await api(t, a.token).delete(`/api/v4/users/${a.id}/keys/${k.id}`)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().delete(`/api/v4/users/${b.id}/keys/${k.id}`)).body).toEqual({ message: '404 Key Not Found' });
    expect((await admin().delete(`/api/v4/users/4242/keys/${k.id}`)).body).toEqual({ message: '404 User Not Found' });
    expect((await admin().delete(`/api/v4/users/${a.id}/keys/abc`)).body).toEqual({ error: 'key_id is invalid' });
    const del = await admin().delete(`/api/v4/users/${a.id}/keys/${k.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await admin().delete(`/api/v4/users/${a.id}/keys/${k.id}`)).body).toEqual({ message: '404 Key Not Found' });
    expect((await admin().get(`/api/v4/users/${a.id}/keys`)).body).toEqual([]);
  });

  it("goes with its user: deleting the user deletes the user's keys", async () => {
    const u = await createUser(t);
    const k = (
      await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: SSH_KEYS.ed25519.key, title: 't' }).expect(201)
    ).body;
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    expect((await admin().get(`/api/v4/keys/${k.id}`)).status).toBe(404);
  });
});

describe('/user/keys', () => {
  it("lists, reads, adds and deletes the caller's own keys; 401 anonymous", async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const theirs = (
      await admin()
        .post(`/api/v4/users/${other.id}/keys`)
        .send({ key: SSH_KEYS.ed25519b.key, title: 'theirs' })
        .expect(201)
    ).body;
    const mine = await api(t, me.token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ed25519.key, title: 'mine' });
    expect(mine.status).toBe(201);
    expect(keys(mine.body)).toEqual(SSH_KEY_KEYS);
    const list = await api(t, me.token).get('/api/v4/user/keys').expect(200);
    expect(list.headers['x-total']).toBe('1');
    expect(list.body).toEqual([mine.body]);
    expect((await api(t, me.token).get(`/api/v4/user/keys/${mine.body.id}`)).body).toEqual(mine.body);
    expect((await api(t, me.token).get(`/api/v4/user/keys/${theirs.id}`)).body).toEqual({
      message: '404 Key Not Found',
    });
    expect((await api(t, me.token).get('/api/v4/user/keys/99999999999')).body).toEqual({
      message: '404 Key Not Found',
    });
    expect((await api(t, me.token).delete(`/api/v4/user/keys/${theirs.id}`)).body).toEqual({
      message: '404 Key Not Found',
    });
    expect((await api(t, me.token).post('/api/v4/user/keys').send({ title: 'x' })).body).toEqual({
      error: 'key is missing',
    });
    for (const res of [
      await api(t).get('/api/v4/user/keys'),
      await api(t).get(`/api/v4/user/keys/${mine.body.id}`),
      await api(t).post('/api/v4/user/keys').send({}),
      await api(t).delete(`/api/v4/user/keys/${mine.body.id}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
    expect((await api(t, me.token).delete(`/api/v4/user/keys/${mine.body.id}`)).status).toBe(204);
    expect((await api(t, me.token).get('/api/v4/user/keys')).body).toEqual([]);
    expect((await admin().get(`/api/v4/users/${other.id}/keys`)).body).toHaveLength(1);
  });

  it('acts as the Sudo user for an admin token', async () => {
    const u = await createUser(t);
    const res = await admin()
      .post('/api/v4/user/keys')
      .set('Sudo', u.username)
      .send({ key: SSH_KEYS.ed25519.key, title: 'sudo' })
      .expect(201);
    expect((await api(t, u.token).get(`/api/v4/user/keys/${res.body.id}`)).body.title).toBe('sudo');
  });
});

describe('token scopes', () => {
  it('read_user reads keys and e-mails of users.rb (GET only); GET /keys/:id (keys.rb) needs api', async () => {
    const u = await createUser(t);
    const token = `scoped-${crypto.randomBytes(10).toString('hex')}`;
    await queryOne(
      t,
      `insert into personal_access_tokens (user_id, name, token_digest, scopes) values (?, 'scoped', ?, '{read_user}')`,
      [u.id, crypto.createHash('sha256').update(token).digest('hex')],
    );
    const k = (
      await api(t, u.token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ed25519.key, title: 't' }).expect(201)
    ).body;
    expect((await api(t, token).get('/api/v4/user/keys')).status).toBe(200);
    expect((await api(t, token).get(`/api/v4/user/keys/${k.id}`)).status).toBe(200);
    expect((await api(t, token).get('/api/v4/user/emails')).status).toBe(200);
    expect(
      (await api(t, token).post('/api/v4/user/keys').send({ key: SSH_KEYS.ed25519b.key, title: 't' })).body,
    ).toMatchObject({ error: 'insufficient_scope' });
    expect((await api(t, token).delete(`/api/v4/user/keys/${k.id}`)).status).toBe(403);
    await queryOne(t, 'update users set admin = true where id = ?', [u.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    expect((await api(t, token).get(`/api/v4/users/${u.id}/keys`)).status).toBe(200);
    expect((await api(t, token).get(`/api/v4/keys/${k.id}`)).body).toMatchObject({ error: 'insufficient_scope' });
  });
});

describe('GET /keys?fingerprint= (later GitLab)', () => {
  it('finds a key by MD5 or SHA256 fingerprint with its user (admin); 400 for a malformed one, 404 Key Not Found', async () => {
    const u = await createUser(t);
    const k = (
      await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: SSH_KEYS.rsa2048.key, title: 'fp' }).expect(201)
    ).body;
    const byMd5 = await admin().get(`/api/v4/keys?fingerprint=${SSH_KEYS.rsa2048.fingerprint}`).expect(200);
    expect(keys(byMd5.body)).toEqual([...SSH_KEY_KEYS, 'user'].sort());
    expect(byMd5.body).toMatchObject({ id: k.id, user: { id: u.id } });
    const sha = encodeURIComponent(SSH_KEYS.rsa2048.sha256);
    expect((await admin().get(`/api/v4/keys?fingerprint=${sha}`).expect(200)).body.id).toBe(k.id);
    expect(
      (
        await admin()
          .get(`/api/v4/keys?fingerprint=${sha.replace('SHA256', 'sha256')}`)
          .expect(200)
      ).body.id,
    ).toBe(k.id);
    expect((await admin().get(`/api/v4/keys?fingerprint=${SSH_KEYS.ec256.fingerprint}`)).body).toEqual({
      message: '404 Key Not Found',
    });
    expect((await admin().get('/api/v4/keys?fingerprint=nope')).body).toEqual({ message: 'Failed to return the key' });
    expect((await admin().get('/api/v4/keys?fingerprint=SHA256:abc')).status).toBe(400);
    expect((await admin().get('/api/v4/keys')).body).toEqual({ error: 'fingerprint is missing' });
    expect((await api(t, u.token).get(`/api/v4/keys?fingerprint=${SSH_KEYS.rsa2048.fingerprint}`)).status).toBe(403);
    expect((await api(t).get(`/api/v4/keys?fingerprint=${SSH_KEYS.rsa2048.fingerprint}`)).status).toBe(401);
  });
});

describe('GET /keys/:id', () => {
  it('shows any key with its user as UserPublic (admin); 404 Not found for unknown ids', async () => {
    const u = await createUser(t);
    const k = (
      await admin().post(`/api/v4/users/${u.id}/keys`).send({ key: SSH_KEYS.ec384.key, title: 'ec' }).expect(201)
    ).body;
    const res = await admin().get(`/api/v4/keys/${k.id}`).expect(200);
    expect(keys(res.body)).toEqual([...SSH_KEY_KEYS, 'user'].sort());
    expect(keys(res.body.user)).toEqual(USER_PUBLIC_KEYS);
    expect(res.body).toMatchObject({
      ...k,
      user: { id: u.id, username: u.username, email: `${u.username}@example.com` },
    });
    expect((await admin().get('/api/v4/keys/4242')).body).toEqual({ message: '404 Not found' });
    expect((await api(t, u.token).get(`/api/v4/keys/${k.id}`)).body).toEqual({ message: '403 Forbidden' });
    expect((await api(t).get(`/api/v4/keys/${k.id}`)).status).toBe(401);
  });
});
