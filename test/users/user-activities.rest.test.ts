import { createUser, queryOne } from '../support/factories';
import { USER_PUBLIC_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { activityWritesSettled, forgetActivityWrites } from '../../src/modules/users';

/** last_activity_on recorded on authenticated requests, and GitLab 10.3's GET /user/activities. */
const NOW = new Date('2026-11-20T15:30:00Z');
const t = useTestApp({ clock: { now: () => new Date(NOW) } });
const admin = () => api(t, ROOT_TOKEN);
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

beforeEach(() => forgetActivityWrites());

describe('last_activity_on', () => {
  it('is written once a day per user by an authenticated request, off the request, and shown in GET /user', async () => {
    const u = await createUser(t, { username: 'active' });
    const first = await t.captureQueries(async () => {
      await api(t, u.token).get('/api/v4/projects').expect(200);
      await activityWritesSettled();
    });
    expect(first.sql.filter((s) => /update users set last_activity_on/.test(s))).toHaveLength(1);
    expect(
      (
        await queryOne<{ d: string }>(
          t,
          `select to_char(last_activity_on, 'YYYY-MM-DD') as d from users where id = ?`,
          [u.id],
        )
      )?.d,
    ).toBe('2026-11-20');
    // Seen today: the token lookup's row says so, and nothing more is written.
    const second = await t.captureQueries(async () => {
      const me = await api(t, u.token).get('/api/v4/user').expect(200);
      await activityWritesSettled();
      return me;
    });
    expect(second.sql.filter((s) => /update users set last_activity_on/.test(s))).toHaveLength(0);
    expect(keys(second.result.body)).toEqual(USER_PUBLIC_KEYS);
    expect(second.result.body.last_activity_on).toBe('2026-11-20');
    // Anonymous requests and bad tokens record nothing.
    await api(t).get('/api/v4/projects').expect(200);
    await api(t, 'nope').get('/api/v4/projects').expect(401);
    await activityWritesSettled();
    expect(
      (await queryOne<{ n: string }>(t, 'select count(*) as n from users where last_activity_on is not null'))?.n,
    ).toBe('1');
  });

  it('never fails the request when the write fails', async () => {
    const u = await createUser(t);
    await sql('alter table users add constraint users_no_activity check (last_activity_on is null) not valid');
    try {
      await api(t, u.token).get('/api/v4/user').expect(200);
      await activityWritesSettled();
      await api(t, u.token).get('/api/v4/user').expect(200);
      await activityWritesSettled();
    } finally {
      await sql('alter table users drop constraint users_no_activity');
    }
  });
});

describe('GET /user/activities', () => {
  it('answers 401, 400 for a bad `from` before 403 for non-admins (10.3 order), and lists UserActivity by day for admins', async () => {
    const u = await createUser(t, { username: 'old_timer' });
    const v = await createUser(t, { username: 'newcomer' });
    const w = await createUser(t, { username: 'gone' });
    expect((await api(t).get('/api/v4/user/activities')).status).toBe(401);
    expect((await api(t, u.token).get('/api/v4/user/activities?from=garbage')).body).toEqual({
      error: 'from is invalid',
    });
    expect((await api(t, u.token).get('/api/v4/user/activities')).status).toBe(403);
    await activityWritesSettled();
    await sql('update users set last_activity_on = ? where id = ?', ['2026-10-01', u.id]);
    await sql('update users set last_activity_on = ? where id = ?', ['2026-11-19', v.id]);
    await sql('update users set last_activity_on = ? where id = ?', ['2026-05-20', w.id]);
    await sql(`update users set last_activity_on = '2026-11-20' where id = 1`);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    // Default `from`: six months ago (2026-05-20T15:30Z), so 2026-05-20 itself is before it.
    const res = await admin().get('/api/v4/user/activities').expect(200);
    expect(res.body).toEqual([
      { username: 'old_timer', last_activity_on: '2026-10-01', last_activity_at: '2026-10-01' },
      { username: 'newcomer', last_activity_on: '2026-11-19', last_activity_at: '2026-11-19' },
      { username: 'root', last_activity_on: '2026-11-20', last_activity_at: '2026-11-20' },
    ]);
    expect(res.headers['x-total']).toBe('3');
    expect(
      (await admin().get('/api/v4/user/activities?from=2026-11-19&per_page=1')).body.map(
        (a: { username: string }) => a.username,
      ),
    ).toEqual(['newcomer']);
    expect((await admin().get('/api/v4/user/activities?from=2026-05-20')).body).toHaveLength(4);
    const gql = await admin()
      .graphql('{ userActivities(from: "2026-11-01") { count nodes { username lastActivityOn } } }')
      .expect(200);
    expect(gql.body.data.userActivities).toEqual({
      count: 2,
      nodes: [
        { username: 'newcomer', lastActivityOn: '2026-11-19' },
        { username: 'root', lastActivityOn: '2026-11-20' },
      ],
    });
  });
});
