import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createUser, queryOne } from '../support/factories';
import request from 'supertest';
import { activityWritesSettled } from '../../src/modules/users';

/**
 * The credential cache (docs/security.md#credential-cache): a token an instance has seen costs no
 * statement; every change to its user, its tokens or the settings read with it is seen at once by the
 * instance that wrote it and, at commit, by every other instance — also when the write comes from
 * outside the service (triggers).
 */
let now = new Date('2026-11-25T12:00:00Z');
const t = useTestApp({ clock: { now: () => now } });
beforeEach(() => {
  now = new Date('2026-11-25T12:00:00Z');
});

const TOKEN_LOOKUP = /from personal_access_tokens t join users u/;
const lookups = async (fn: () => Promise<unknown>) =>
  (await t.captureQueries(fn)).sql.filter((s) => TOKEN_LOOKUP.test(s)).length;
/** One second instance for the file (its start-up is most of a test's time); reset() waits for it too. */
let other: Awaited<ReturnType<typeof t.secondInstance>> | undefined;
const second = async () => (other ??= await t.secondInstance());
/**
 * First requests with these tokens on these instances, then the day's last_activity_on writes they
 * started and the notices of those writes (a change of the user's row forgets its credentials): after
 * this, each token is cached in each instance.
 */
async function touch(apps: Parameters<typeof request>[0][], tokens: string[]) {
  for (const app of apps) for (const token of tokens) await me(app, token).expect(200);
  await activityWritesSettled();
  await t.settled();
  for (const app of apps) for (const token of tokens) await me(app, token).expect(200);
}
/** Runs `fn` with the table's UPDATE credential trigger off (no notice from its writes), then turns it on again. */
async function withoutTrigger(table: 'users' | 'personal_access_tokens', fn: () => Promise<void>) {
  const conn = t.orm.em.getConnection();
  await conn.execute(`alter table ${table} disable trigger ${table}_auth_cache_update`);
  try {
    await fn();
  } finally {
    await conn.execute(`alter table ${table} enable trigger ${table}_auth_cache_update`);
  }
}
const me = (app: Parameters<typeof request>[0], token: string) =>
  request(app).get('/api/v4/user').set('PRIVATE-TOKEN', token);

describe('credential cache', () => {
  it('reads a token once: later requests with it send no token lookup; an unknown token is looked up every time', async () => {
    const u = await createUser(t);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(1);
    // The day's first request records last_activity_on, a change of the user's row: read once more.
    await activityWritesSettled();
    await t.settled();
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(1);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(0);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(0);
    expect(await lookups(() => me(t.app, 'tok-unknown').expect(401))).toBe(1);
    expect(await lookups(() => me(t.app, 'tok-unknown').expect(401))).toBe(1);
  });

  it('revoking a token through one instance: refused there at once (without waiting for any notice), and by the other instance after the commit', async () => {
    const u = await createUser(t);
    const created = await api(t, ROOT_TOKEN)
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'ci', scopes: ['api'] })
      .expect(201);
    const token = created.body.token as string;
    const b = await second();
    await touch([t.app, b.app], [token]);
    expect(await lookups(() => me(t.app, token).expect(200))).toBe(0); // cached in A
    // With the tokens' trigger off no notice is sent: A refuses at once by its own forgetting; B, which
    // hears nothing, still answers from its cache (the proof that it had the token cached).
    await withoutTrigger('personal_access_tokens', async () => {
      await api(t, ROOT_TOKEN).delete(`/api/v4/users/${u.id}/impersonation_tokens/${created.body.id}`).expect(204);
      await me(t.app, token).expect(401);
      await t.settled();
      await me(b.app, token).expect(200);
    });
    // The same write with the trigger on (any update of the row) reaches B at commit.
    await t.orm.em
      .getConnection()
      .execute('update personal_access_tokens set updated_at = updated_at where id = ?', [created.body.id]);
    await t.settled();
    await me(b.app, token).expect(401);
    await me(b.app, u.token).expect(200); // the user's other token still works
  });

  it('blocking and unblocking a user through one instance: its cached tokens follow there at once, and on the other instance after the commit', async () => {
    const u = await createUser(t);
    const b = await second();
    await touch([t.app, b.app], [u.token]);
    await withoutTrigger('users', async () => {
      await api(t, ROOT_TOKEN).post(`/api/v4/users/${u.id}/block`).expect(201);
      await me(t.app, u.token).expect(401);
      await t.settled();
      await me(b.app, u.token).expect(200); // no notice: B answers from its cache
    });
    await t.orm.em.getConnection().execute('update users set bio = bio where id = ?', [u.id]);
    await t.settled();
    await me(b.app, u.token).expect(401);
    await api(t, ROOT_TOKEN).post(`/api/v4/users/${u.id}/unblock`).expect(201);
    await me(t.app, u.token).expect(200);
    await t.settled();
    await me(b.app, u.token).expect(200);
  });

  it('one statement revoking tokens of few users but more than 100 rows tells each of those users', async () => {
    const many = await createUser(t);
    await t.orm.em
      .getConnection()
      .execute(
        `insert into personal_access_tokens (user_id, name, token_digest, scopes) select ?, 'bulk', md5(random()::text || i), '{api}' from generate_series(1, 120) i`,
        [many.id],
      );
    const last = await createUser(t); // its token row comes after the 120
    await touch([t.app], [last.token, many.token]);
    await t.orm.em
      .getConnection()
      .execute('update personal_access_tokens set revoked = true where user_id in (?, ?)', [many.id, last.id]);
    await t.settled();
    await me(t.app, last.token).expect(401);
    await me(t.app, many.token).expect(401);
  });

  it('a change written straight into the tables (another program) reaches every instance through the triggers', async () => {
    const [u, v] = [await createUser(t), await createUser(t)];
    const b = await second();
    await touch([t.app, b.app], [u.token, v.token]);
    const conn = t.orm.em.getConnection();
    // With the users trigger off, a block is not heard: both instances answer from their caches.
    await withoutTrigger('users', async () => {
      await conn.execute(`update users set state = 'blocked' where id = ?`, [u.id]);
      await t.settled();
      await me(t.app, u.token).expect(200);
      await me(b.app, u.token).expect(200);
    });
    // With it on, any update of the row is heard by both.
    await conn.execute('update users set bio = bio where id = ?', [u.id]);
    await t.settled();
    await me(t.app, u.token).expect(401);
    await me(b.app, u.token).expect(401);
    // A token's row: expired behind the service's back.
    await conn.execute(`update personal_access_tokens set expires_at = '2020-01-01' where user_id = ?`, [v.id]);
    await t.settled();
    await me(t.app, v.token).expect(401);
    await me(b.app, v.token).expect(401);
  });

  it('a statement touching more than 100 users forgets every cached credential with one notice', async () => {
    const u = await createUser(t);
    await t.orm.em
      .getConnection()
      .execute(
        `insert into users (username, email, name) select 'bulk' || i, 'bulk' || i || '@example.com', 'Bulk ' || i from generate_series(1, 101) i`,
      );
    await me(t.app, u.token).expect(200);
    await me(t.app, ROOT_TOKEN).expect(200);
    const notices: string[] = [];
    const on = (k: string) => notices.push(k);
    t.cache.events.on('invalidated', on);
    await t.orm.em.getConnection().execute(`update users set bio = 'bulk' where username like 'bulk%'`);
    await t.settled();
    t.cache.events.off('invalidated', on);
    expect(notices.filter((k) => k.startsWith('auth'))).toEqual(['auth']);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(1);
    expect(await lookups(() => me(t.app, ROOT_TOKEN).expect(200))).toBe(1);
  });

  it('a settings change forgets every credential (the unique-IPs limit is read with it)', async () => {
    const u = await createUser(t);
    await me(t.app, u.token).expect(200);
    await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ unique_ips_limit_enabled: true, unique_ips_limit_per_user: 1 })
      .expect(200);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(1);
  });

  it('an entry holds for its day only: a token whose expiry day comes is refused from that day on', async () => {
    const u = await createUser(t);
    await t.orm.em
      .getConnection()
      .execute(`update personal_access_tokens set expires_at = '2026-11-26' where user_id = ?`, [u.id]);
    await t.settled();
    await me(t.app, u.token).expect(200);
    expect(await lookups(() => me(t.app, u.token).expect(200))).toBe(0);
    now = new Date('2026-11-26T00:00:01Z');
    await me(t.app, u.token).expect(401);
    expect(
      (await queryOne<{ n: string }>(t, 'select count(*) as n from personal_access_tokens where user_id = ?', [u.id]))!
        .n,
    ).toBe('1');
  });

  it('forgets every credential on every instance for any write of application_settings: insert, delete and truncate as update', async () => {
    const b = await t.secondInstance();
    const conn = t.orm.em.getConnection();
    await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200); // the row exists
    const [{ row }] = (await conn.execute('select row_to_json(s) as row from application_settings s')) as {
      row: unknown;
    }[];
    const restore = `insert into application_settings select * from json_populate_record(null::application_settings, '${JSON.stringify(row).replace(/'/g, "''")}'::json)`;
    for (const sql of ['delete from application_settings', restore, 'truncate application_settings', restore]) {
      const heard = new Promise<void>((resolve) => {
        const on = (key: string) => {
          if (key !== 'auth') return;
          b.cache.events.off('invalidated', on);
          resolve();
        };
        b.cache.events.on('invalidated', on);
      });
      await conn.execute(sql);
      await heard;
    }
  });
});
