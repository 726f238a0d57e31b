import crypto from 'node:crypto';
import { createUser, queryOne } from '../support/factories';
import { ALICE, BOB, CAROL } from '../support/gpg-keys';
import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';

/** GPG keys as GitLab 10.3's users API (lib/api/users.rb, Entities::GPGKey, app/models/gpg_key.rb). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

const GPG_KEY_KEYS = ['created_at', 'id', 'key'];
const FORMAT =
  "is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'";
const NO_KEY_READ = { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } };
const keys = (o: object) => Object.keys(o).sort();

async function tokenFor(app: TestApp, userId: number, scopes: string[]): Promise<string> {
  const token = `scoped-${crypto.randomBytes(10).toString('hex')}`;
  await queryOne(
    app,
    `insert into personal_access_tokens (user_id, name, token_digest, scopes) values (?, 'scoped', ?, ?::text[])`,
    [userId, crypto.createHash('sha256').update(token).digest('hex'), `{${scopes.join(',')}}`],
  );
  return token;
}
async function addKey(userId: number, key: string): Promise<number> {
  return (await admin().post(`/api/v4/users/${userId}/gpg_keys`).send({ key }).expect(201)).body.id;
}
const stored = (id: number) =>
  queryOne<{ user_id: number; fingerprint: string; primary_keyid: string; key: string }>(
    t,
    'select user_id, fingerprint, primary_keyid, key from gpg_keys where id = ?',
    [id],
  );
const lines = (key: string) => key.split('\n');

describe('/users/:id/gpg_keys (administrators)', () => {
  it('answers 401 to anonymous callers and 403 to other users on every route', async () => {
    const u = await createUser(t);
    const id = await addKey(u.id, BOB.key);
    for (const [method, path] of [
      ['get', ''],
      ['post', ''],
      ['delete', `/${id}`],
      ['post', `/${id}/revoke`],
    ] as const) {
      const url = `/api/v4/users/${u.id}/gpg_keys${path}`;
      expect([url, (await api(t)[method](url).send({ key: ALICE.key })).body]).toEqual([
        url,
        { message: '401 Unauthorized' },
      ]);
      expect([url, (await api(t, u.token)[method](url).send({ key: ALICE.key })).body]).toEqual([
        url,
        { message: '403 Forbidden' },
      ]);
    }
    expect((await stored(id))?.fingerprint).toBe(BOB.fingerprint);
  });

  it('checks parameters before the administrator role, as GitLab 10.3 (writes authenticate first)', async () => {
    const u = await createUser(t);
    const base = `/api/v4/users/${u.id}/gpg_keys`;
    expect((await api(t, u.token).post(base).expect(400)).body).toEqual({ error: 'key is missing' });
    expect((await api(t, u.token).delete(`${base}/abc`).expect(400)).body).toEqual({ error: 'key_id is invalid' });
    expect((await api(t, u.token).post(`${base}/abc/revoke`).expect(400)).body).toEqual({ error: 'key_id is invalid' });
    expect((await api(t).get(`${base}?per_page=abc`).expect(400)).body).toEqual({ error: 'per_page is invalid' });
    expect((await api(t).post(base).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    // The role comes before the user lookup: no way to probe user ids.
    expect((await api(t, u.token).get('/api/v4/users/424242/gpg_keys').expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t).get('/api/v4/users/424242/gpg_keys').expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
  });

  it("POST adds a key: 201 with GitLab's GPGKey keys, fingerprint and primary key id stored upper-case", async () => {
    const u = await createUser(t);
    const res = await admin()
      .post(`/api/v4/users/${u.id}/gpg_keys`)
      .send({ key: `\n  ${ALICE.key}\n\n` })
      .expect(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(keys(res.body)).toEqual(GPG_KEY_KEYS);
    expect(res.body).toEqual({
      id: expect.any(Number),
      key: ALICE.key,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(await stored(res.body.id)).toEqual({
      user_id: u.id,
      fingerprint: ALICE.fingerprint,
      primary_keyid: ALICE.keyId,
      key: ALICE.key,
    });
    // Form bodies too (curl -d key=…).
    const form = await admin().post(`/api/v4/users/${u.id}/gpg_keys`).type('form').send({ key: CAROL.key }).expect(201);
    expect((await stored(form.body.id))?.fingerprint).toBe(CAROL.fingerprint);
  });

  it("POST: 400 for a missing key, GitLab's model messages for blank, malformed and unreadable keys", async () => {
    const u = await createUser(t);
    const post = (body: object) => admin().post(`/api/v4/users/${u.id}/gpg_keys`).send(body);
    expect((await post({}).expect(400)).body).toEqual({ error: 'key is missing' });
    expect((await post({ key: '' }).expect(400)).body).toEqual({ message: { key: ["can't be blank", FORMAT] } });
    expect((await post({ key: ' \n ' }).expect(400)).body).toEqual({ message: { key: ["can't be blank", FORMAT] } });
    expect((await post({ key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE4 user@host' }).expect(400)).body).toEqual({
      message: { key: [FORMAT] },
    });
    expect((await post({ key: `${BOB.key}\n${ALICE.key}` }).expect(400)).body).toEqual({ message: { key: [FORMAT] } });
    expect((await post({ key: BOB.key.replace(/PUBLIC KEY BLOCK/g, 'PRIVATE KEY BLOCK') }).expect(400)).body).toEqual({
      message: { key: [FORMAT] },
    });
    // Armored, but gpg would import nothing: no fingerprint, no primary key id.
    const bob = lines(BOB.key);
    const crc = bob.findIndex((l) => l.startsWith('='));
    const badCrc = [...bob.slice(0, crc), bob[crc] === '=AAAA' ? '=AAAB' : '=AAAA', ...bob.slice(crc + 1)].join('\n');
    expect((await post({ key: badCrc }).expect(400)).body).toEqual(NO_KEY_READ);
    const truncated = [bob[0], bob[1], bob[2], bob[bob.length - 1]].join('\n'); // the first 48 of the key packet's 53 bytes
    expect((await post({ key: truncated }).expect(400)).body).toEqual(NO_KEY_READ);
    const badBase64 = BOB.key.replace(bob[2], `${bob[2].slice(0, 10)}!${bob[2].slice(11)}`);
    expect((await post({ key: badBase64 }).expect(400)).body).toEqual(NO_KEY_READ);
    expect(
      (
        await post({
          key: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----',
        }).expect(400)
      ).body,
    ).toEqual(NO_KEY_READ);
    expect(await queryOne<{ n: string }>(t, 'select count(*) as n from gpg_keys')).toEqual({ n: '0' });
  });

  it('POST: a huge key is refused with 400 before it is read', async () => {
    const u = await createUser(t);
    const filler = `${'A'.repeat(64)}\n`.repeat(1_100);
    const huge = `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${filler}-----END PGP PUBLIC KEY BLOCK-----`;
    expect(huge.length).toBeGreaterThan(65_536);
    expect((await admin().post(`/api/v4/users/${u.id}/gpg_keys`).send({ key: huge }).expect(400)).body).toEqual({
      message: { key: ['is too long (maximum is 65536 characters)'] },
    });
    // Just below the limit: read in full, nothing found.
    const big = `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${`${'A'.repeat(64)}\n`.repeat(1_000)}-----END PGP PUBLIC KEY BLOCK-----`;
    expect((await admin().post(`/api/v4/users/${u.id}/gpg_keys`).send({ key: big }).expect(400)).body).toEqual(
      NO_KEY_READ,
    );
    // Long runs of blanks before other text (quadratic for a /\s+$/ regular expression) are read in one pass.
    const blanks = ' '.repeat(65_000);
    expect(
      (
        await admin()
          .post(`/api/v4/users/${u.id}/gpg_keys`)
          .send({ key: `x${blanks}y` })
          .expect(400)
      ).body,
    ).toEqual({ message: { key: [FORMAT] } });
    const blankLine = `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${blanks}x\n-----END PGP PUBLIC KEY BLOCK-----`;
    expect((await admin().post(`/api/v4/users/${u.id}/gpg_keys`).send({ key: blankLine }).expect(400)).body).toEqual(
      NO_KEY_READ,
    );
  });

  it('POST: a key is unique across users, by its text ("key") or by its fingerprint', async () => {
    const [u, other] = [await createUser(t), await createUser(t)];
    await addKey(u.id, BOB.key);
    const again = await admin().post(`/api/v4/users/${other.id}/gpg_keys`).send({ key: BOB.key }).expect(400);
    expect(again.body).toEqual({ message: { key: ['has already been taken'] } });
    const rewrapped = BOB.key.replace(
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: the same key\n',
    );
    for (const owner of [u, other]) {
      const res = await admin().post(`/api/v4/users/${owner.id}/gpg_keys`).send({ key: rewrapped }).expect(400);
      expect(res.body).toEqual({
        message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] },
      });
    }
  });

  it("POST: of concurrent adds of one key exactly one succeeds, the others get GitLab's 400", async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => createUser(t)));
    const results = await Promise.all(
      users.map((u) => admin().post(`/api/v4/users/${u.id}/gpg_keys`).send({ key: CAROL.key })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) {
      expect([
        { message: { key: ['has already been taken'] } },
        { message: { fingerprint: ['has already been taken'], primary_keyid: ['has already been taken'] } },
      ]).toContainEqual(r.body);
    }
    expect(await queryOne<{ n: string }>(t, 'select count(*) as n from gpg_keys')).toEqual({ n: '1' });
  });

  it('POST and GET: 404 User Not Found for an unknown user, also beyond int4; 400 for a non-integer key id', async () => {
    for (const id of ['424242', '99999999999']) {
      expect((await admin().post(`/api/v4/users/${id}/gpg_keys`).send({ key: BOB.key }).expect(404)).body).toEqual({
        message: '404 User Not Found',
      });
      expect((await admin().get(`/api/v4/users/${id}/gpg_keys`).expect(404)).body).toEqual({
        message: '404 User Not Found',
      });
      expect((await admin().delete(`/api/v4/users/${id}/gpg_keys/1`).expect(404)).body).toEqual({
        message: '404 User Not Found',
      });
      expect((await admin().post(`/api/v4/users/${id}/gpg_keys/1/revoke`).expect(404)).body).toEqual({
        message: '404 User Not Found',
      });
    }
    const u = await createUser(t);
    expect((await admin().delete(`/api/v4/users/${u.id}/gpg_keys/abc`).expect(400)).body).toEqual({
      error: 'key_id is invalid',
    });
  });

  it("GET lists a user's keys in id order with pagination headers", async () => {
    const [u, other] = [await createUser(t), await createUser(t)];
    const ids = [await addKey(u.id, BOB.key), await addKey(other.id, CAROL.key), await addKey(u.id, ALICE.key)];
    const res = await admin().get(`/api/v4/users/${u.id}/gpg_keys`).expect(200);
    expect(res.body.map((k: { id: number; key: string }) => [k.id, k.key])).toEqual([
      [ids[0], BOB.key],
      [ids[2], ALICE.key],
    ]);
    expect(res.body.map(keys)).toEqual([GPG_KEY_KEYS, GPG_KEY_KEYS]);
    expect([res.headers['x-total'], res.headers['x-page'], res.headers['x-per-page']]).toEqual(['2', '1', '20']);
    const page2 = await admin().get(`/api/v4/users/${u.id}/gpg_keys?per_page=1&page=2`).expect(200);
    expect([
      page2.body.map((k: { id: number }) => k.id),
      page2.headers['x-total-pages'],
      page2.headers['x-prev-page'],
    ]).toEqual([[ids[2]], '2', '1']);
  });

  it('GET sends the same number of statements for 1 and 20 keys', async () => {
    const u = await createUser(t);
    await addKey(u.id, BOB.key);
    const one = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/gpg_keys`).expect(200));
    for (let i = 1; i < 20; i++) {
      await queryOne(t, `insert into gpg_keys (user_id, key, fingerprint, primary_keyid) values (?, ?, ?, ?)`, [
        u.id,
        `k${i}`,
        String(i).padStart(40, 'F'),
        String(i).padStart(16, 'F'),
      ]);
    }
    const twenty = await t.countQueries(() => admin().get(`/api/v4/users/${u.id}/gpg_keys`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });

  it("DELETE removes the key (204); revoke removes it too and answers 202 with Grape's body `202`", async () => {
    const [u, other] = [await createUser(t), await createUser(t)];
    const [bob, alice, carol] = [
      await addKey(u.id, BOB.key),
      await addKey(u.id, ALICE.key),
      await addKey(other.id, CAROL.key),
    ];
    const del = await admin().delete(`/api/v4/users/${u.id}/gpg_keys/${bob}`).expect(204);
    expect(del.text).toBe('');
    expect((await admin().delete(`/api/v4/users/${u.id}/gpg_keys/${bob}`).expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    const revoke = await admin().post(`/api/v4/users/${u.id}/gpg_keys/${alice}/revoke`).expect(202);
    expect([revoke.headers['content-type'], revoke.text]).toEqual(['application/json', '202']);
    expect((await admin().post(`/api/v4/users/${u.id}/gpg_keys/${alice}/revoke`).expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    // Another user's key is not found under this user.
    expect((await admin().delete(`/api/v4/users/${u.id}/gpg_keys/${carol}`).expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    expect((await admin().post(`/api/v4/users/${u.id}/gpg_keys/99999999999/revoke`).expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    expect((await admin().get(`/api/v4/users/${u.id}/gpg_keys`).expect(200)).body).toEqual([]);
    expect((await stored(carol))?.fingerprint).toBe(CAROL.fingerprint);
    // A revoked key may be added again.
    await addKey(u.id, ALICE.key);
  });
});

describe("/user/gpg_keys (the caller's own)", () => {
  it('answers 401 to anonymous callers on every route', async () => {
    for (const [method, path] of [
      ['get', ''],
      ['get', '/1'],
      ['post', ''],
      ['post', '/1/revoke'],
      ['delete', '/1'],
    ] as const) {
      expect((await api(t)[method](`/api/v4/user/gpg_keys${path}`).send({ key: BOB.key }).expect(401)).body).toEqual({
        message: '401 Unauthorized',
      });
    }
  });

  it("adds, lists, gets, revokes and deletes the caller's keys only", async () => {
    const [me, other] = [await createUser(t), await createUser(t)];
    const theirs = await addKey(other.id, CAROL.key);
    const created = await api(t, me.token).post('/api/v4/user/gpg_keys').send({ key: BOB.key }).expect(201);
    expect(keys(created.body)).toEqual(GPG_KEY_KEYS);
    expect((await stored(created.body.id))?.user_id).toBe(me.id);
    const alice = (await api(t, me.token).post('/api/v4/user/gpg_keys').send({ key: ALICE.key }).expect(201)).body.id;
    expect((await api(t, me.token).post('/api/v4/user/gpg_keys').send({ key: CAROL.key }).expect(400)).body).toEqual({
      message: { key: ['has already been taken'] },
    });
    expect((await api(t, me.token).post('/api/v4/user/gpg_keys').expect(400)).body).toEqual({
      error: 'key is missing',
    });
    const list = await api(t, me.token).get('/api/v4/user/gpg_keys').expect(200);
    expect(list.body.map((k: { id: number }) => k.id)).toEqual([created.body.id, alice]);
    expect(list.headers['x-total']).toBe('2');
    expect((await api(t, me.token).get(`/api/v4/user/gpg_keys/${alice}`).expect(200)).body).toEqual({
      id: alice,
      key: ALICE.key,
      created_at: expect.any(String),
    });
    for (const [method, path] of [
      ['get', ''],
      ['delete', ''],
      ['post', '/revoke'],
    ] as const) {
      const res = await api(t, me.token)[method](`/api/v4/user/gpg_keys/${theirs}${path}`).expect(404);
      expect(res.body).toEqual({ message: '404 GPG Key Not Found' });
    }
    expect((await api(t, me.token).get('/api/v4/user/gpg_keys/99999999999').expect(404)).body).toEqual({
      message: '404 GPG Key Not Found',
    });
    expect((await api(t, me.token).post(`/api/v4/user/gpg_keys/${alice}/revoke`).expect(202)).text).toBe('202');
    expect((await api(t, me.token).delete(`/api/v4/user/gpg_keys/${created.body.id}`).expect(204)).text).toBe('');
    expect((await api(t, me.token).get('/api/v4/user/gpg_keys').expect(200)).body).toEqual([]);
    expect((await stored(theirs))?.user_id).toBe(other.id);
  });

  it("accepts read_user tokens for reads only (the users API's scope rule)", async () => {
    const me = await createUser(t);
    const id = await addKey(me.id, BOB.key);
    const token = await tokenFor(t, me.id, ['read_user']);
    expect(
      (await api(t, token).get('/api/v4/user/gpg_keys').expect(200)).body.map((k: { id: number }) => k.id),
    ).toEqual([id]);
    await api(t, token).get(`/api/v4/user/gpg_keys/${id}`).expect(200);
    expect((await api(t, token).post('/api/v4/user/gpg_keys').send({ key: ALICE.key }).expect(403)).body.error).toBe(
      'insufficient_scope',
    );
    expect((await api(t, token).delete(`/api/v4/user/gpg_keys/${id}`).expect(403)).body.error).toBe(
      'insufficient_scope',
    );
  });

  it('GET sends the same number of statements for 1 and 20 keys', async () => {
    const me = await createUser(t);
    await addKey(me.id, BOB.key);
    const one = await t.countQueries(() => api(t, me.token).get('/api/v4/user/gpg_keys').expect(200));
    for (let i = 1; i < 20; i++) {
      await queryOne(t, `insert into gpg_keys (user_id, key, fingerprint, primary_keyid) values (?, ?, ?, ?)`, [
        me.id,
        `k${i}`,
        String(i).padStart(40, 'F'),
        String(i).padStart(16, 'F'),
      ]);
    }
    const twenty = await t.countQueries(() => api(t, me.token).get('/api/v4/user/gpg_keys').expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('GPG key audit events', () => {
  it("records add and remove on the key's user, the key named by its fingerprint; a refused add records nothing", async () => {
    const me = await createUser(t, { username: 'gpg-owner' });
    await t.orm.em.getConnection().execute('delete from audit_events');
    const bob = (await api(t, me.token).post('/api/v4/user/gpg_keys').send({ key: BOB.key }).expect(201)).body.id;
    await api(t, me.token).post('/api/v4/user/gpg_keys').send({ key: BOB.key }).expect(400);
    const alice = await addKey(me.id, ALICE.key);
    await api(t, me.token).delete(`/api/v4/user/gpg_keys/${bob}`).expect(204);
    await admin().post(`/api/v4/users/${me.id}/gpg_keys/${alice}/revoke`).expect(202);
    const list = (await admin().get(`/api/v4/audit_events?entity_type=User&entity_id=${me.id}`).expect(200)).body as {
      author_id: number;
      details: Record<string, unknown>;
    }[];
    expect(
      list
        .reverse()
        .map((e) => [
          e.author_id,
          e.details.add ?? e.details.remove,
          e.details.target_type,
          e.details.target_id,
          e.details.target_details,
          e.details.entity_path,
        ]),
    ).toEqual([
      [me.id, 'gpg_key', 'GpgKey', String(bob), BOB.fingerprint, 'gpg-owner'],
      [1, 'gpg_key', 'GpgKey', String(alice), ALICE.fingerprint, 'gpg-owner'],
      [me.id, 'gpg_key', 'GpgKey', String(bob), BOB.fingerprint, 'gpg-owner'],
      [1, 'gpg_key', 'GpgKey', String(alice), ALICE.fingerprint, 'gpg-owner'],
    ]);
  });
});
