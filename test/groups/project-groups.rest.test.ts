import { addGroupMember, createGroup, createProject, createUser, shareProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { GROUP_KEYS } from '../support/keys';

/** GET /projects/:id/groups (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path);

describe('GET /projects/:id/groups', () => {
  it("lists the project's group and its ancestors, and with with_shared the visible share groups", async () => {
    const top = await createGroup(t, { path: 'top', name: 'Top', visibility: 'public' });
    const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: top, visibility: 'public' });
    const project = await createProject(t, { namespace: sub, path: 'app', visibility: 'public' });
    const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
    const hidden = await createGroup(t, { path: 'hidden', name: 'Hidden', visibility: 'private' });
    await shareProject(t, project, partner, 30);
    await shareProject(t, project, hidden, 20);

    const plain = await api(t).get(`/api/v4/projects/${project.id}/groups`).expect(200);
    expect(paths(plain.body)).toEqual(['top/sub', 'top']);
    expect(Object.keys(plain.body[0]).sort()).toEqual([
      'avatar_url',
      'full_name',
      'full_path',
      'id',
      'name',
      'web_url',
    ]);
    expect(plain.body[0]).toMatchObject({ id: sub.id, name: 'Sub', full_name: 'Top / Sub' });
    expect(
      paths((await api(t).get(`/api/v4/projects/top%2Fsub%2Fapp/groups?with_shared=true`).expect(200)).body),
    ).toEqual(['partner', 'top/sub', 'top']);
    const member = await createUser(t);
    await addGroupMember(t, hidden, member, 10);
    const mine = await api(t, member.token).get(`/api/v4/projects/${project.id}/groups?with_shared=true`).expect(200);
    expect(paths(mine.body)).toEqual(['hidden', 'partner', 'top/sub', 'top']);
    expect(
      paths(
        (
          await api(t, ROOT_TOKEN)
            .get(
              `/api/v4/projects/${project.id}/groups?with_shared=true&shared_min_access_level=30&skip_groups[]=${top.id}`,
            )
            .expect(200)
        ).body,
      ),
    ).toEqual(['partner', 'top/sub']);
    expect(paths((await api(t).get(`/api/v4/projects/${project.id}/groups?search=top`).expect(200)).body)).toEqual([
      'top',
    ]);
    const personal = await createUser(t);
    const own = await createProject(t, { namespace: { id: personal.namespaceId }, visibility: 'public' });
    expect((await api(t).get(`/api/v4/projects/${own.id}/groups`).expect(200)).body).toEqual([]);
    expect((await api(t).get('/api/v4/projects/424242/groups').expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});

async function world() {
  const top = await createGroup(t, { path: 'top', name: 'Top', visibility: 'public' });
  const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: top, visibility: 'public' });
  const project = await createProject(t, { namespace: sub, path: 'app', visibility: 'public' });
  const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
  const hidden = await createGroup(t, { path: 'hidden', name: 'Hidden', visibility: 'private' });
  const teams = await createGroup(t, { path: 'teams', name: 'Teams', visibility: 'public' });
  const crew = await createGroup(t, { path: 'crew', name: 'Crew', parent: teams, visibility: 'public' });
  await shareProject(t, project, partner, 30);
  await shareProject(t, project, hidden, 20);
  await shareProject(t, project, crew, 40);
  const member = await createUser(t, { username: 'member' });
  await addGroupMember(t, hidden, member, 10);
  await addGroupMember(t, teams, member, 30); // Developer of crew through its parent
  return { top, sub, project, partner, hidden, teams, crew, member };
}

const fullPaths = (list: { nodes: { fullPath: string }[] }) => list.nodes.map((g) => g.fullPath);

describe('GET /projects/:id/invited_groups', () => {
  it('lists the groups the project is shared with that the caller may see, by name; min_access_level is the caller’s', async () => {
    const w = await world();
    const url = `/api/v4/projects/${w.project.id}/invited_groups`;
    const anon = await api(t).get(url).expect(200);
    expect(paths(anon.body)).toEqual(['teams/crew', 'partner']);
    expect(Object.keys(anon.body[0]).sort()).toEqual(GROUP_KEYS);
    expect(anon.headers['x-total']).toBe('2');
    expect(paths((await api(t, w.member.token).get(url).expect(200)).body)).toEqual([
      'teams/crew',
      'hidden',
      'partner',
    ]);
    expect(paths((await api(t, w.member.token).get(`${url}?min_access_level=10`).expect(200)).body)).toEqual([
      'teams/crew',
      'hidden',
    ]);
    expect(paths((await api(t, w.member.token).get(`${url}?min_access_level=30`).expect(200)).body)).toEqual([
      'teams/crew',
    ]);
    expect((await api(t).get(`${url}?min_access_level=10`).expect(200)).body).toEqual([]);
    expect(paths((await api(t, w.member.token).get(`${url}?search=part`).expect(200)).body)).toEqual(['partner']);
    expect(paths((await api(t, ROOT_TOKEN).get(`${url}?per_page=1&page=2`).expect(200)).body)).toEqual(['hidden']);
    expect((await api(t).get('/api/v4/projects/424242/invited_groups').expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});

describe('Project.groups and Project.invitedGroups', () => {
  const LISTS = (groupsArgs = '', invitedArgs = '') =>
    `{ project(fullPath: "top/sub/app") {
      groups${groupsArgs} { count nodes { fullPath } pageInfo { hasNextPage endCursor } }
      invitedGroups${invitedArgs} { count nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`;
  const lists = async (token: string | undefined, groupsArgs = '', invitedArgs = '') => {
    const res = await api(t, token).graphql(LISTS(groupsArgs, invitedArgs));
    expect(res.body.errors).toBeUndefined();
    return res.body.data.project;
  };
  const rest = async (token: string | undefined, url: string) => {
    const res = await api(t, token).get(url).expect(200);
    return { paths: paths(res.body), total: Number(res.headers['x-total']) };
  };

  it('list what GET /projects/:id/groups and /invited_groups list to the same caller, with their filters', async () => {
    const w = await world();
    const base = `/api/v4/projects/${w.project.id}`;
    const cases: [string | undefined, string, string, string, string][] = [
      [undefined, '', '', '/groups', '/invited_groups'],
      [w.member.token, '', '', '/groups', '/invited_groups'],
      [
        w.member.token,
        '(withShared: true)',
        '(minAccessLevel: GUEST)',
        '/groups?with_shared=true',
        '/invited_groups?min_access_level=10',
      ],
      [
        ROOT_TOKEN,
        `(withShared: true, sharedMinAccessLevel: DEVELOPER, skipGroups: [${w.top.id}])`,
        '(minAccessLevel: DEVELOPER)',
        `/groups?with_shared=true&shared_min_access_level=30&skip_groups[]=${w.top.id}`,
        '/invited_groups?min_access_level=30',
      ],
      [w.member.token, '(search: "top")', '(search: "part")', '/groups?search=top', '/invited_groups?search=part'],
      [
        undefined,
        '(withShared: true)',
        '(minAccessLevel: GUEST)',
        '/groups?with_shared=true',
        '/invited_groups?min_access_level=10',
      ],
    ];
    for (const [token, groupsArgs, invitedArgs, groupsUrl, invitedUrl] of cases) {
      const gql = await lists(token, groupsArgs, invitedArgs);
      const [groups, invited] = [await rest(token, base + groupsUrl), await rest(token, base + invitedUrl)];
      expect([groupsArgs, fullPaths(gql.groups), gql.groups.count]).toEqual([groupsArgs, groups.paths, groups.total]);
      expect([invitedArgs, fullPaths(gql.invitedGroups), gql.invitedGroups.count]).toEqual([
        invitedArgs,
        invited.paths,
        invited.total,
      ]);
    }
    const mine = await lists(w.member.token, '(withShared: true)', '(minAccessLevel: GUEST)');
    expect(fullPaths(mine.groups)).toEqual(['teams/crew', 'hidden', 'partner', 'top/sub', 'top']);
    expect(fullPaths(mine.invitedGroups)).toEqual(['teams/crew', 'hidden']);
    // Anonymous callers: the visible groups; with a level, no invited group.
    const anon = await lists(undefined, '(withShared: true)', '(minAccessLevel: GUEST)');
    expect(fullPaths(anon.groups)).toEqual(['teams/crew', 'partner', 'top/sub', 'top']);
    expect(anon.invitedGroups).toMatchObject({ count: 0, nodes: [] });
    // A personal project has no group of its own.
    const personal = await createUser(t, { username: 'solo' });
    await createProject(t, { namespace: { id: personal.namespaceId }, path: 'mine', visibility: 'public' });
    const own = await api(t).graphql('{ project(fullPath: "solo/mine") { groups { count nodes { id } } } }');
    expect(own.body.data.project.groups).toEqual({ count: 0, nodes: [] });
  });

  it('page with first/after in the order of page/per_page', async () => {
    const w = await world();
    const base = `/api/v4/projects/${w.project.id}`;
    const first = await lists(w.member.token, '(withShared: true, first: 2)', '(first: 2)');
    expect(fullPaths(first.groups)).toEqual(['teams/crew', 'hidden']);
    expect(first.groups.pageInfo.hasNextPage).toBe(true);
    expect(fullPaths(first.invitedGroups)).toEqual(['teams/crew', 'hidden']);
    const after = (list: { pageInfo: { endCursor: string } }) => `after: "${list.pageInfo.endCursor}"`;
    const next = await lists(
      w.member.token,
      `(withShared: true, first: 2, ${after(first.groups)})`,
      `(first: 2, ${after(first.invitedGroups)})`,
    );
    expect(fullPaths(next.groups)).toEqual(
      (await rest(w.member.token, `${base}/groups?with_shared=true&per_page=2&page=2`)).paths,
    );
    expect(fullPaths(next.groups)).toEqual(['partner', 'top/sub']);
    expect(fullPaths(next.invitedGroups)).toEqual(['partner']);
    expect(next.invitedGroups.pageInfo.hasNextPage).toBe(false);
  });

  it("answer a page of projects in one round trip, each project's own groups", async () => {
    const w = await world();
    const others = [];
    for (let i = 0; i < 5; i += 1)
      others.push(await createProject(t, { namespace: w.sub, path: `p-${i}`, visibility: 'public' }));
    await shareProject(t, others[0], w.partner, 30);
    await shareProject(t, others[1], w.hidden, 10);
    const q = (n: number) =>
      `{ group(fullPath: "top/sub") { projects(first: ${n}) { nodes { fullPath
        groups(withShared: true, first: 3) { count nodes { fullPath } }
        invitedGroups(first: 3) { count nodes { fullPath } } } } } }`;
    await api(t, w.member.token).graphql(q(1)); // warm per-process caches before counting
    const one = await t.countQueries(() => api(t, w.member.token).graphql(q(1)));
    const all = await t.countQueries(() => api(t, w.member.token).graphql(q(6)));
    expect(all.result.body.errors).toBeUndefined();
    const byProject = Object.fromEntries(
      all.result.body.data.group.projects.nodes.map(
        (p: {
          fullPath: string;
          groups: { nodes: { fullPath: string }[] };
          invitedGroups: { nodes: { fullPath: string }[] };
        }) => [p.fullPath, [fullPaths(p.groups), fullPaths(p.invitedGroups)]],
      ),
    );
    expect(byProject).toEqual({
      'top/sub/app': [
        ['teams/crew', 'hidden', 'partner'],
        ['teams/crew', 'hidden', 'partner'],
      ],
      'top/sub/p-0': [['partner', 'top/sub', 'top'], ['partner']],
      'top/sub/p-1': [['hidden', 'top/sub', 'top'], ['hidden']],
      'top/sub/p-2': [['top/sub', 'top'], []],
      'top/sub/p-3': [['top/sub', 'top'], []],
      'top/sub/p-4': [['top/sub', 'top'], []],
    });
    expect(all.count).toBe(one.count);
  });
});
