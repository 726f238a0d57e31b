import { addGroupMember, createGroup, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Domain rules under races: real concurrent HTTP requests against the real database; the
 * invariant is asserted afterwards (no sleeps, no timings).
 */
const t = useTestApp();

describe('projects_limit holds under a race', () => {
  it('limit 1, ten parallel creates: exactly one 201, the others 403 with the limit message', async () => {
    const u = await createUser(t);
    await t.orm.em.getConnection().execute('update users set projects_limit = 1 where id = ?', [u.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api(t, u.token)
          .post('/api/v4/projects')
          .send({ name: `race-${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 403, 403, 403, 403, 403, 403, 403, 403, 403]);
    for (const r of results.filter((x) => x.status === 403)) {
      expect(r.body).toEqual({
        message: ['Your project limit is 1 projects! Please contact your administrator to increase it'],
      });
    }
    expect(
      await queryOne<{ n: string }>(t, 'select count(*) as n from projects where namespace_id = ?', [u.namespaceId]),
    ).toEqual({ n: '1' });
  });
});

describe('two owners demoting or removing each other concurrently', () => {
  const ownersLeft = async (groupId: number) =>
    (
      await queryOne<{ n: string }>(
        t,
        'select count(*) as n from group_members where group_id = ? and access_level = 50',
        [groupId],
      )
    )?.n;

  it.each(['demote', 'remove'] as const)(
    '%s: one succeeds, the other is refused, one owner remains',
    async (action) => {
      for (let round = 0; round < 5; round += 1) {
        const g = await createGroup(t);
        const a = await createUser(t);
        const b = await createUser(t);
        await addGroupMember(t, g, a, 50);
        await addGroupMember(t, g, b, 50);
        const hit = (by: typeof a, target: typeof b) =>
          action === 'demote'
            ? api(t, by.token).put(`/api/v4/groups/${g.id}/members/${target.id}`).send({ access_level: 30 })
            : api(t, by.token).delete(`/api/v4/groups/${g.id}/members/${target.id}`);
        const results = await Promise.all([hit(a, b), hit(b, a), hit(a, a), hit(b, b)]);
        expect(results.every((r) => r.status < 500)).toBe(true);
        expect(await ownersLeft(g.id)).toBe('1');
      }
    },
  );
});

describe('renaming a group while subgroups are created', () => {
  it('every subgroup ends under the new path (none keeps the old prefix)', async () => {
    for (let round = 0; round < 3; round += 1) {
      const parent = await createGroup(t, { path: `ren-${round}`, visibility: 'private' });
      const mid = await createGroup(t, { path: 'mid', parent });
      const creates = Array.from({ length: 6 }, (_, i) =>
        api(t, ROOT_TOKEN)
          .post('/api/v4/groups')
          .send({ name: `c${i}`, path: `c${i}`, parent_id: i % 2 ? parent.id : mid.id }),
      );
      const rename = api(t, ROOT_TOKEN)
        .put(`/api/v4/groups/${parent.id}`)
        .send({ path: `ren-${round}x` });
      const results = await Promise.all([
        creates[0],
        creates[1],
        creates[2],
        rename,
        creates[3],
        creates[4],
        creates[5],
      ]);
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 200, 201, 201, 201]);
      const stale = await queryOne<{ n: string }>(t, `select count(*) as n from namespaces where full_path like ?`, [
        `ren-${round}/%`,
      ]);
      expect(stale).toEqual({ n: '0' });
      const moved = await queryOne<{ n: string }>(t, `select count(*) as n from namespaces where full_path like ?`, [
        `ren-${round}x/%`,
      ]);
      expect(moved).toEqual({ n: '7' });
      expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/ren-${round}x%2Fmid%2Fc0`)).status).toBe(200);
    }
  });
});
