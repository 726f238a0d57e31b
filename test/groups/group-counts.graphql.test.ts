import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';

/** Counts a dashboard overview needs, in one request, batched per page, visibility-aware. */
const t = useTestApp();
const COUNTS =
  '{ groups(allAvailable: true, sort: "path_asc") { nodes { fullPath projectsCount descendantGroupsCount groupMembersCount } } }';

describe('Group counts', () => {
  it('projectsCount, descendantGroupsCount and groupMembersCount as the caller may see them', async () => {
    const alice = await createUser(t, { username: 'alice' });
    const top = await createGroup(t, { path: 'top', visibility: 'public' });
    const sub = await createGroup(t, { path: 'sub', parent: top, visibility: 'public' });
    await createGroup(t, { path: 'hidden', parent: top, visibility: 'private' });
    await createGroup(t, { path: 'deep', parent: sub, visibility: 'public' });
    await createProject(t, { namespace: top, path: 'open', visibility: 'public' });
    await createProject(t, { namespace: top, path: 'closed', visibility: 'private' });
    await addGroupMember(t, top, alice, 30);

    const anonymous = (await api(t).graphql(COUNTS).expect(200)).body.data.groups.nodes;
    expect(anonymous.find((g: { fullPath: string }) => g.fullPath === 'top')).toEqual({
      fullPath: 'top',
      projectsCount: 1,
      descendantGroupsCount: 2,
      groupMembersCount: 1,
    });
    const member = (await api(t, alice.token).graphql(COUNTS).expect(200)).body.data.groups.nodes;
    expect(member.find((g: { fullPath: string }) => g.fullPath === 'top')).toEqual({
      fullPath: 'top',
      projectsCount: 2,
      descendantGroupsCount: 3,
      groupMembersCount: 1,
    });
    // groupMembersCount is GitLab's count of direct members; the groupMembers list is direct and inherited by default.
    const members = await api(t)
      .graphql(
        '{ group(fullPath: "top/sub") { groupMembersCount groupMembers { count } direct: groupMembers(relations: [DIRECT]) { count } } }',
      )
      .expect(200);
    expect(members.body.data.group).toEqual({ groupMembersCount: 0, groupMembers: { count: 1 }, direct: { count: 0 } });
    const admin = (await api(t, ROOT_TOKEN).graphql(COUNTS).expect(200)).body.data.groups.nodes;
    expect(
      admin
        .map((g: { fullPath: string; projectsCount: number; descendantGroupsCount: number }) => [
          g.fullPath,
          g.projectsCount,
          g.descendantGroupsCount,
        ])
        .sort(),
    ).toEqual([
      ['top', 2, 3],
      ['top/hidden', 0, 0],
      ['top/sub', 0, 1],
      ['top/sub/deep', 0, 0],
    ]);
  });

  it('costs the same number of statements for 1 group and for 20', async () => {
    const one = await createGroup(t, { path: 'g-0', visibility: 'public' });
    await createProject(t, { namespace: one, path: 'p', visibility: 'public' });
    const count = async () => (await t.countQueries(() => api(t, ROOT_TOKEN).graphql(COUNTS).expect(200))).count;
    const small = await count();
    for (let i = 1; i < 20; i += 1) await createGroup(t, { path: `g-${i}`, visibility: 'public' });
    expect(await count()).toBe(small);
  });
});

describe('top-level groups', () => {
  it('topLevelOnly (REST top_level_only, as later GitLab) leaves out subgroups', async () => {
    const top = await createGroup(t, { path: 'alpha', visibility: 'public' });
    await createGroup(t, { path: 'beta', parent: top, visibility: 'public' });
    await createGroup(t, { path: 'gamma', visibility: 'public' });
    const gql = (
      await api(t, ROOT_TOKEN)
        .graphql('{ groups(allAvailable: true, topLevelOnly: true) { nodes { fullPath } } }')
        .expect(200)
    ).body.data.groups.nodes;
    expect(gql.map((g: { fullPath: string }) => g.fullPath).sort()).toEqual(['alpha', 'gamma']);
    const rest = (await api(t).get('/api/v4/groups?top_level_only=true').expect(200)).body as { full_path: string }[];
    expect(rest.map((g) => g.full_path).sort()).toEqual(['alpha', 'gamma']);
    expect((await api(t).get('/api/v4/groups').expect(200)).body).toHaveLength(3);
  });
});
