import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { MEMBER_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe.each(['groups', 'projects'] as const)('/%s/:id/members', (kind) => {
  async function source(vis: 'private' | 'public' = 'private') {
    const g = await createGroup(t, { visibility: vis });
    if (kind === 'groups') return { id: g.id, group: g };
    const p = await createProject(t, { namespace: g, visibility: vis });
    return { id: p.id, group: g };
  }
  const adminLevel = kind === 'groups' ? 50 : 40;

  it('lists direct members with GitLab keys; invisible sources are 404', async () => {
    const src = await source();
    const u = await createUser(t, { username: `m-${kind}` });
    const owner = await createUser(t);
    await addGroupMember(t, src.group, owner, 50);
    await api(t, owner.token)
      .post(`/api/v4/${kind}/${src.id}/members`)
      .send({ user_id: u.id, access_level: 30, expires_at: '2099-01-01' })
      .expect(201);
    const res = await api(t, u.token).get(`/api/v4/${kind}/${src.id}/members?query=m-`);
    expect(res.status).toBe(200);
    expect(res.headers['x-total']).toBe('1');
    expect(keys(res.body[0])).toEqual(MEMBER_KEYS);
    expect(res.body[0]).toMatchObject({
      id: u.id,
      username: `m-${kind}`,
      access_level: 30,
      expires_at: '2099-01-01',
      state: 'active',
    });
    const stranger = await createUser(t);
    expect((await api(t, stranger.token).get(`/api/v4/${kind}/${src.id}/members`)).status).toBe(404);
  });

  it(`adds (201), updates (200) and removes (204) members when the caller has access level ${adminLevel}`, async () => {
    const src = await source();
    const admin = await createUser(t);
    const dev = await createUser(t);
    const target = await createUser(t);
    await addGroupMember(t, src.group, admin, adminLevel);
    await addGroupMember(t, src.group, dev, 30);
    expect(
      (await api(t, dev.token).post(`/api/v4/${kind}/${src.id}/members`).send({ user_id: target.id, access_level: 10 }))
        .body,
    ).toEqual({ message: '403 Forbidden' });
    const added = await api(t, admin.token)
      .post(`/api/v4/${kind}/${src.id}/members`)
      .send({ user_id: target.id, access_level: 10 });
    expect(added.status).toBe(201);
    const dup = await api(t, admin.token)
      .post(`/api/v4/${kind}/${src.id}/members`)
      .send({ user_id: target.id, access_level: 10 });
    expect([dup.status, dup.body]).toEqual([409, { message: 'Member already exists' }]);
    const updated = await api(t, admin.token)
      .put(`/api/v4/${kind}/${src.id}/members/${target.id}`)
      .send({ access_level: 20 });
    expect([updated.status, updated.body.access_level]).toEqual([200, 20]);
    expect((await api(t, admin.token).get(`/api/v4/${kind}/${src.id}/members/${target.id}`)).body.access_level).toBe(
      20,
    );
    expect((await api(t, admin.token).delete(`/api/v4/${kind}/${src.id}/members/${target.id}`)).status).toBe(204);
    expect((await api(t, admin.token).get(`/api/v4/${kind}/${src.id}/members/${target.id}`)).body).toEqual({
      message: '404 Member Not Found',
    });
  });

  it('issues the same number of SQL statements for 1 and 20 members', async () => {
    const src = await source('public');
    const add = async (n: number) => {
      for (let i = 0; i < n; i += 1)
        await api(t, ROOT_TOKEN)
          .post(`/api/v4/${kind}/${src.id}/members`)
          .send({ user_id: (await createUser(t)).id, access_level: 20 })
          .expect(201);
    };
    await add(1);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/${kind}/${src.id}/members`).expect(200));
    await add(19);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/${kind}/${src.id}/members`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });

  it('validates parameters', async () => {
    const src = await source();
    expect((await api(t, ROOT_TOKEN).post(`/api/v4/${kind}/${src.id}/members`).send({})).body).toEqual({
      error: 'user_id is missing, access_level is missing',
    });
    expect(
      (await api(t, ROOT_TOKEN).post(`/api/v4/${kind}/${src.id}/members`).send({ user_id: 4242, access_level: 30 }))
        .body,
    ).toEqual({ message: '404 User Not Found' });
    const u = await createUser(t);
    expect(
      (await api(t, ROOT_TOKEN).post(`/api/v4/${kind}/${src.id}/members`).send({ user_id: u.id, access_level: 35 }))
        .body,
    ).toEqual({ error: 'access_level does not have a valid value' });
    expect(
      (await api(t).post(`/api/v4/${kind}/${src.id}/members`).send({ user_id: u.id, access_level: 30 })).status,
    ).toBe(401);
  });

  it('membership grants access: a new member can read the private source', async () => {
    const src = await source();
    const u = await createUser(t);
    expect((await api(t, u.token).get(`/api/v4/${kind}/${src.id}`)).status).toBe(404);
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/${kind}/${src.id}/members`)
      .send({ user_id: u.id, access_level: 10 })
      .expect(201);
    expect((await api(t, u.token).get(`/api/v4/${kind}/${src.id}`)).status).toBe(200);
  });
  it("a member leaves: removes their own membership, not another member's (GitLab's *MemberPolicy target_is_self)", async () => {
    const src = await source();
    const me = await createUser(t);
    const other = await createUser(t);
    for (const u of [me, other]) {
      if (kind === 'groups') await addGroupMember(t, src.group, u, 30);
      else await addProjectMember(t, { id: src.id }, u, 30);
    }
    const url = (u: { id: number }) => `/api/v4/${kind}/${src.id}/members/${u.id}`;
    await api(t, me.token).delete(url(other)).expect(403, { message: '403 Forbidden' });
    await api(t, me.token).delete(url(me)).expect(204);
    // Gone: the source is private, so it is now 404 to the one who left; the other member stays.
    await api(t, me.token).get(`/api/v4/${kind}/${src.id}`).expect(404);
    await api(t, other.token).get(url(other)).expect(200);
    await api(t, other.token).get(url(me)).expect(404);
  });
});

describe('group membership inheritance', () => {
  it('an Owner of the parent manages members of subgroups and sees their projects', async () => {
    const parent = await createGroup(t);
    const child = await createGroup(t, { parent });
    const p = await createProject(t, { namespace: child });
    const owner = await createUser(t);
    const u = await createUser(t);
    await addGroupMember(t, parent, owner, 50);
    expect(
      (await api(t, owner.token).post(`/api/v4/groups/${child.id}/members`).send({ user_id: u.id, access_level: 30 }))
        .status,
    ).toBe(201);
    expect((await api(t, owner.token).get(`/api/v4/projects/${p.id}`)).status).toBe(200);
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(200);
  });

  it('an expired membership (or share) no longer grants access', async () => {
    const g = await createGroup(t);
    const p = await createProject(t, { namespace: g });
    const u = await createUser(t);
    await addGroupMember(t, g, u, 30);
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(200);
    await t.orm.em
      .getConnection()
      .execute(`update group_members set expires_at = current_date where user_id = ?`, [u.id]);
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(404);
    expect((await api(t, u.token).get(`/api/v4/groups/${g.id}`)).status).toBe(404);
    const other = await createGroup(t);
    await addGroupMember(t, other, u, 30);
    await t.orm.em
      .getConnection()
      .execute(
        `insert into project_group_links (project_id, group_id, group_access, expires_at) values (?, ?, 30, current_date - 1)`,
        [p.id, other.id],
      );
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(404);
  });

  it('refuses to remove the last Owner of a group', async () => {
    const g = await createGroup(t);
    const owner = await createUser(t);
    await addGroupMember(t, g, owner, 50);
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}/members/${owner.id}`)).status).toBe(403);
    // Not by leaving either; with a second owner the first may leave.
    expect((await api(t, owner.token).delete(`/api/v4/groups/${g.id}/members/${owner.id}`)).status).toBe(403);
    const second = await createUser(t);
    await addGroupMember(t, g, second, 50);
    expect((await api(t, owner.token).delete(`/api/v4/groups/${g.id}/members/${owner.id}`)).status).toBe(204);
  });
});
