import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../../support/test-app';
import { createRunner } from '../../runners/runner-factories';
import { MANIFEST } from './manifest';
import { runDocument } from './run';

const t = useTestApp();

/** The numeric id at the end of a GitLab global id (`gid://gitlab/User/5` → 5). */
const dbId = (gid: unknown) => Number(String(gid).split('/').pop());

describe("GitLab's frontend documents executed against the service", () => {
  it('the documents used here validate today (manifest.ts)', () => {
    for (const p of [
      'graphql_shared/queries/current_user.query.graphql',
      'graphql_shared/queries/users_search_all_paginated.query.graphql',
      'graphql_shared/queries/groups_autocomplete.query.graphql',
      'ci/runner/graphql/shared/runner_toggle_paused.mutation.graphql',
      'graphql_shared/queries/project_user_members_search.query.graphql',
    ]) {
      expect([p, MANIFEST[p].expected]).toEqual([p, 'validates']);
    }
  });

  it('currentUser (shared User fragment) answers what GET /user answers', async () => {
    const u = await createUser(t, { username: 'ada', name: 'Ada Lovelace' });
    const res = await runDocument(t.server, 'graphql_shared/queries/current_user.query.graphql', {}, u.token);
    expect(res.errors).toBeUndefined();
    const rest = (await api(t, u.token).get('/api/v4/user')).body;
    const me = res.data!.currentUser as Record<string, unknown>;
    expect({
      id: dbId(me.id),
      name: me.name,
      username: me.username,
      avatarUrl: me.avatarUrl,
      webUrl: me.webUrl,
    }).toEqual({
      id: rest.id,
      name: rest.name,
      username: rest.username,
      avatarUrl: rest.avatar_url,
      webUrl: rest.web_url,
    });
    expect(me.id).toBe(`gid://gitlab/User/${u.id}`);
  });

  it('searchAllUsersPaginated answers the users GET /users?search= answers, with a page cursor', async () => {
    for (const n of ['grace', 'gracie', 'linus']) await createUser(t, { username: n });
    // `after: null` replaces the document's default `""`, which the service rejects as an invalid cursor today
    // (docs/gitlab-frontend-documents.md, "Execution findings").
    const res = await runDocument(
      t.server,
      'graphql_shared/queries/users_search_all_paginated.query.graphql',
      { search: 'grac', first: 1, after: null },
      ROOT_TOKEN,
    );
    expect(res.errors).toBeUndefined();
    const users = res.data!.users as { nodes: Record<string, unknown>[]; pageInfo: Record<string, unknown> };
    const rest = (await api(t, ROOT_TOKEN).get('/api/v4/users?search=grac')).body as { username: string }[];
    expect(rest.map((u) => u.username).sort()).toEqual(['grace', 'gracie']);
    expect(users.nodes).toHaveLength(1);
    expect(rest.map((u) => u.username)).toContain(users.nodes[0].username);
    expect(users.pageInfo).toMatchObject({ hasNextPage: true });
    const next = await runDocument(
      t.server,
      'graphql_shared/queries/users_search_all_paginated.query.graphql',
      { search: 'grac', first: 1, after: users.pageInfo.endCursor },
      ROOT_TOKEN,
    );
    const second = (next.data!.users as typeof users).nodes.map((n) => n.username);
    expect([users.nodes[0].username, ...second].sort()).toEqual(['grace', 'gracie']);
  });

  it('groupsAutocomplete answers the groups GET /groups?search= answers to the same user', async () => {
    const u = await createUser(t);
    const team = await createGroup(t, { path: 'alpha-team', name: 'Alpha Team', visibility: 'private' });
    await createGroup(t, { path: 'alpha-secret', name: 'Alpha Secret', visibility: 'private' });
    await addGroupMember(t, team, u, 30);
    const res = await runDocument(
      t.server,
      'graphql_shared/queries/groups_autocomplete.query.graphql',
      { search: 'alpha' },
      u.token,
    );
    expect(res.errors).toBeUndefined();
    const rest = (await api(t, u.token).get('/api/v4/groups?search=alpha')).body as Record<string, unknown>[];
    const nodes = (res.data!.groups as { nodes: Record<string, unknown>[] }).nodes;
    const fromGql = nodes.map((g) => ({ id: dbId(g.id), name: g.name, fullName: g.fullName, avatarUrl: g.avatarUrl }));
    // The list's rows are GitLab's search shape here (id, name, path, description); each group's own
    // GET /groups/:id gives full_name and avatar_url.
    const fromRest = [];
    for (const g of rest) {
      const one = (await api(t, u.token).get(`/api/v4/groups/${String(g.id)}`)).body;
      fromRest.push({ id: one.id, name: one.name, fullName: one.full_name, avatarUrl: one.avatar_url });
    }
    expect(fromGql.sort((a, b) => a.id - b.id)).toEqual(fromRest.sort((a, b) => a.id - b.id));
    expect(fromGql.map((g) => g.name)).toEqual(['Alpha Team']);
  });

  it("runnerTogglePaused with GitLab's input pauses and resumes the runner, as REST's active shows", async () => {
    const r = await createRunner(t, { shared: true });
    const id = `gid://gitlab/Ci::Runner/${r.id}`;
    for (const paused of [true, false]) {
      const res = await runDocument(
        t.server,
        'ci/runner/graphql/shared/runner_toggle_paused.mutation.graphql',
        { input: { id, paused } },
        ROOT_TOKEN,
      );
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ runnerUpdate: { runner: { id, paused }, errors: [] } });
      expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${r.id}`)).body.active).toBe(!paused);
    }
  });

  it('searchProjectMembers answers the members GET /projects/:id/members?query= answers', async () => {
    const g = await createGroup(t, { path: 'crew', visibility: 'private' });
    const p = await createProject(t, { namespace: g, path: 'ship', visibility: 'private' });
    const owner = await createUser(t, { username: 'captain', name: 'Kathryn Janeway' });
    const mate = await createUser(t, { username: 'mate', name: 'Chakotay' });
    // Matches the search but is no member: the search is over members only.
    const outsider = await createUser(t, { username: 'kate', name: 'Kate Outside' });
    await addProjectMember(t, p, owner, 40);
    await addProjectMember(t, p, mate, 30);
    const res = await runDocument(
      t.server,
      'graphql_shared/queries/project_user_members_search.query.graphql',
      { fullPath: 'crew/ship', search: 'ka' },
      owner.token,
    );
    expect(res.errors).toBeUndefined();
    const project = res.data!.project as { id: string; projectMembers: { nodes: { user: Record<string, unknown> }[] } };
    expect(dbId(project.id)).toBe(p.id);
    const rest = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/members?query=ka`)).body as Record<
      string,
      unknown
    >[];
    const fromGql = project.projectMembers.nodes.map((n) => ({
      id: dbId(n.user.id),
      name: n.user.name,
      username: n.user.username,
      avatarUrl: n.user.avatarUrl,
    }));
    const fromRest = rest.map((m) => ({ id: m.id, name: m.name, username: m.username, avatarUrl: m.avatar_url }));
    expect(fromGql).toEqual(fromRest);
    expect(fromGql.map((u) => u.username)).toEqual(['captain']);
    // A user who may not see the project gets no project (GitLab answers null), not its members.
    const hidden = await runDocument(
      t.server,
      'graphql_shared/queries/project_user_members_search.query.graphql',
      { fullPath: 'crew/ship', search: '' },
      outsider.token,
    );
    expect(hidden.data?.project ?? null).toBeNull();
  });
});
