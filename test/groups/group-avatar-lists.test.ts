import request from 'supertest';
import { createGroup } from '../support/factories';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Group lists and group reads probe for avatars only while some group has one, a fact each instance caches
 * (src/modules/avatars/group-avatars-exist.ts): an avatar written from anywhere must reach every
 * instance's lists at commit.
 */
const t = useTestApp();

type App = Parameters<typeof request>[0];
const avatarsOf = async (app: App) =>
  (await request(app).get('/api/v4/groups?all_available=true&order_by=path').set('PRIVATE-TOKEN', ROOT_TOKEN)).body.map(
    (g: { path: string; avatar_url: string | null }) => [g.path, g.avatar_url],
  );
const detailAvatarOf = async (app: App, id: number) =>
  (await request(app).get(`/api/v4/groups/${id}`).set('PRIVATE-TOKEN', ROOT_TOKEN)).body.avatar_url as string | null;
const urlOf = (id: number, file: string) => `http://gitlab.test/uploads/-/system/group/avatar/${id}/${file}`;
// What an older release, or an SQL console, writes: the row alone, without the service's own invalidation.
const insertAvatar = (id: number, file: string) =>
  t.orm.em
    .getConnection()
    .execute(
      `insert into avatars (group_id, filename, content_type, size, sha256, data) values (?, ?, 'image/png', 1, repeat('0', 64), '\\x00')`,
      [id, file],
    );

describe('group list avatars across instances', () => {
  it('an avatar written outside the service reaches both instances, and its removal too', async () => {
    const b = await t.secondInstance();
    const one = await createGroup(t, { path: 'av-one', visibility: 'public' });
    await createGroup(t, { path: 'av-two', visibility: 'public' });
    // Both instances now know that no group has an avatar.
    expect(await avatarsOf(t.app)).toEqual([
      ['av-one', null],
      ['av-two', null],
    ]);
    expect(await avatarsOf(b.app)).toEqual(await avatarsOf(t.app));

    // Proof that B answers from what it cached: with the table's triggers off (no NOTIFY) the row is not seen.
    const conn = t.orm.em.getConnection();
    await conn.execute('alter table avatars disable trigger user');
    try {
      await insertAvatar(one.id, 'hidden.png');
      expect(await avatarsOf(b.app)).toEqual([
        ['av-one', null],
        ['av-two', null],
      ]);
      expect(await detailAvatarOf(b.app, one.id)).toBeNull();
      await conn.execute('delete from avatars');
    } finally {
      await conn.execute('alter table avatars enable trigger user');
    }

    // With them on (as deployed), the insert reaches both at commit, and GraphQL lists agree.
    await insertAvatar(one.id, 'logo.png');
    await t.settled();
    for (const app of [t.app, b.app]) {
      expect(await avatarsOf(app)).toEqual([
        ['av-one', urlOf(one.id, 'logo.png')],
        ['av-two', null],
      ]);
      expect(await detailAvatarOf(app, one.id)).toBe(urlOf(one.id, 'logo.png'));
      const gql = await request(app)
        .post('/api/graphql')
        .set('PRIVATE-TOKEN', ROOT_TOKEN)
        .send({ query: '{ groups(search: "av-", sort: "path_asc") { nodes { avatarUrl } } }' });
      expect(gql.body.data.groups.nodes).toEqual([{ avatarUrl: urlOf(one.id, 'logo.png') }, { avatarUrl: null }]);
    }

    // The last group avatar gone: lists show none again.
    await conn.execute('delete from avatars where group_id = ?', [one.id]);
    await t.settled();
    for (const app of [t.app, b.app]) {
      expect(await avatarsOf(app)).toEqual([
        ['av-one', null],
        ['av-two', null],
      ]);
    }
  });

  it('a group avatar uploaded through one instance is listed by the other at once', async () => {
    const b = await t.secondInstance();
    const group = await createGroup(t, { path: 'av-up', visibility: 'public' });
    expect(await avatarsOf(b.app)).toEqual([['av-up', null]]);
    expect(await avatarsOf(t.app)).toEqual([['av-up', null]]);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const put = await request(t.app)
      .put(`/api/v4/groups/${group.id}`)
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .attach('avatar', png, 'up.png');
    expect(put.status).toBe(200);
    // The writing instance forgot its answer before the response; the other forgets it at commit.
    expect(await avatarsOf(t.app)).toEqual([['av-up', urlOf(group.id, 'up.png')]]);
    await t.settled();
    expect(await avatarsOf(b.app)).toEqual([['av-up', urlOf(group.id, 'up.png')]]);
  });
});
