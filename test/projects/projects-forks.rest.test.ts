import { HOOKS_EXIST_KEY } from '../../src/core/events/system-events';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
  shareProject,
} from '../support/factories';
import { PERSONAL_PROJECT_KEYS, PROJECT_SIMPLE_KEYS, USER_BASIC_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GitLab 10.3's forks (without repositories) and POST /projects/user/:user_id. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);
const forksCount = async (id: number) =>
  (await queryOne<{ forks_count: number }>(t, 'select forks_count from projects where id = ?', [id]))?.forks_count;

describe('POST /projects/user/:user_id', () => {
  it('answers 401 anonymous, 400 before 403 for non-admins (10.3 checks admin in the endpoint), 404 for an unknown user', async () => {
    const u = await createUser(t);
    expect((await api(t).post(`/api/v4/projects/user/${u.id}`).send({ name: 'x' })).status).toBe(401);
    expect((await api(t, u.token).post(`/api/v4/projects/user/${u.id}`).send({})).body).toEqual({
      error: 'name is missing',
    });
    const forbidden = await api(t, u.token).post(`/api/v4/projects/user/${u.id}`).send({ name: 'x' });
    expect(forbidden.status).toBe(403);
    expect((await admin().post('/api/v4/projects/user/999999').send({ name: 'x' })).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await admin().post('/api/v4/projects/user/99999999999').send({ name: 'x' })).status).toBe(404);
    expect((await admin().post('/api/v4/projects/user/abc').send({ name: 'x' })).body).toEqual({
      error: 'user_id is invalid',
    });
  });

  it('creates the project as that user: their namespace, creator, Master membership, owner; audit and system events', async () => {
    const u = await createUser(t, { username: 'alice', name: 'Alice' });
    // The outbox is not reset between test files: start from an empty one.
    await sql('delete from system_hook_events');
    await sql(`insert into system_hooks (url) values ('http://127.0.0.1:9/hook')`);
    // Written behind the service's back: tell it a hook exists now (the API does this on create).
    await t.cache.invalidate(t.orm.em.fork(), HOOKS_EXIST_KEY);
    await sql('delete from audit_events');
    const res = await admin()
      .post(`/api/v4/projects/user/${u.id}`)
      .type('form')
      .send('name=Tool&public_builds=false&lfs_enabled=false&ci_config_path=ci/.gitlab-ci.yml');
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual([...PERSONAL_PROJECT_KEYS, 'runners_token'].sort());
    expect(res.body).toMatchObject({
      name: 'Tool',
      path: 'tool',
      path_with_namespace: 'alice/tool',
      creator_id: u.id,
      public_jobs: false,
      lfs_enabled: false,
      ci_config_path: 'ci/.gitlab-ci.yml',
      namespace: { id: u.namespaceId, kind: 'user' },
    });
    expect(res.body.owner).toEqual({
      id: u.id,
      name: 'Alice',
      username: 'alice',
      state: 'active',
      avatar_url: null,
      web_url: 'http://gitlab.test/alice',
    });
    expect(
      (
        await queryOne<{ access_level: number }>(
          t,
          'select access_level from project_members where project_id = ? and user_id = ?',
          [res.body.id, u.id],
        )
      )?.access_level,
    ).toBe(40);
    const events = await sql('select event_name from system_hook_events order by id');
    expect((events as { event_name: string }[]).map((e) => e.event_name)).toEqual([
      'project_create',
      'user_add_to_team',
    ]);
    const audit = await queryOne<{ author_id: number; entity_id: number }>(
      t,
      `select author_id, entity_id from audit_events where entity_type = 'Project'`,
    );
    expect(audit).toEqual({ author_id: 1, entity_id: res.body.id });
  });

  it("applies that user's projects_limit, as 10.3's render_validation_error! (400)", async () => {
    const u = await createUser(t);
    await sql('update users set projects_limit = 0 where id = ?', [u.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    const res = await admin().post(`/api/v4/projects/user/${u.id}`).send({ name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        limit_reached: ['Personal project creation is not allowed. Please contact your administrator with questions'],
      },
    });
  });
});

describe('POST /projects/:id/fork', () => {
  it('forks into the caller’s namespace: the source’s name, path, description, visibility; forked_from_project; forks_count', async () => {
    const g = await createGroup(t, { path: 'up', visibility: 'public' });
    const src = await createProject(t, {
      namespace: g,
      path: 'lib',
      name: 'Lib',
      visibility: 'internal',
      description: 'the lib',
    });
    const u = await createUser(t, { username: 'forker' });
    expect((await api(t).post(`/api/v4/projects/${src.id}/fork`)).status).toBe(401);
    const res = await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`);
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual([...PERSONAL_PROJECT_KEYS, 'forked_from_project', 'runners_token'].sort());
    expect(res.body).toMatchObject({
      name: 'Lib',
      path: 'lib',
      path_with_namespace: 'forker/lib',
      description: 'the lib',
      visibility: 'internal',
      creator_id: u.id,
      forks_count: 0,
    });
    expect(keys(res.body.forked_from_project)).toEqual(PROJECT_SIMPLE_KEYS);
    expect(res.body.forked_from_project).toMatchObject({ id: src.id, path_with_namespace: 'up/lib', forks_count: 1 });
    expect(await forksCount(src.id)).toBe(1);
    // The same fork again: GitLab 10.3's conflict!(errors.messages).
    const again = await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
    // A project that is not a fork has no forked_from_project key.
    expect(keys((await api(t, u.token).get(`/api/v4/projects/${src.id}`)).body)).not.toContain('forked_from_project');
  });

  it('takes `namespace` by id, path or name; 404 Target Namespace Not Found where the caller may not create', async () => {
    const src = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'public' }),
      path: 'app',
      visibility: 'public',
    });
    const u = await createUser(t);
    const team = await createGroup(t, { path: 'team', name: 'The Team', visibility: 'public' });
    await addGroupMember(t, team, u, 40);
    const byPath = await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`).send({ namespace: 'team' });
    expect(byPath.status).toBe(201);
    expect(byPath.body.path_with_namespace).toBe('team/app');
    expect(keys(byPath.body)).not.toContain('owner');
    await sql('delete from projects where id = ?', [byPath.body.id]);
    expect((await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`).send({ namespace: 'the team' })).status).toBe(
      201,
    );
    const devGroup = await createGroup(t, { path: 'devs' });
    await addGroupMember(t, devGroup, u, 30);
    for (const ns of ['devs', String(devGroup.id), 'nowhere', '99999999999']) {
      const res = await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`).send({ namespace: ns });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Target Namespace Not Found' });
    }
  });

  it('404 for a project the caller cannot see; 409 forked_from_project_id is forbidden for a Guest of a private project', async () => {
    const src = await createProject(t, { namespace: await createGroup(t), visibility: 'private' });
    const u = await createUser(t);
    expect((await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`)).body).toEqual({
      message: '404 Project Not Found',
    });
    await addProjectMember(t, src, u, 10);
    const guest = await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`);
    expect(guest.status).toBe(409);
    expect(guest.body).toEqual({ message: { forked_from_project_id: ['is forbidden'] } });
    await sql('update project_members set access_level = 20 where user_id = ?', [u.id]);
    expect((await api(t, u.token).post(`/api/v4/projects/${src.id}/fork`)).status).toBe(201);
  });

  it('hides forked_from_project when the caller may not see the source; deleting the source unlinks its forks', async () => {
    const src = await createProject(t, { namespace: await createGroup(t), path: 'secret', visibility: 'private' });
    const fork = (
      await admin()
        .post(`/api/v4/projects/${src.id}/fork`)
        .send({ namespace: String((await createGroup(t, { visibility: 'public' })).id) })
        .expect(201)
    ).body;
    expect(fork.visibility).toBe('private');
    await sql('update projects set visibility_level = 20 where id = ?', [fork.id]);
    const u = await createUser(t);
    expect(keys((await api(t, u.token).get(`/api/v4/projects/${fork.id}`)).body)).not.toContain('forked_from_project');
    expect((await admin().get(`/api/v4/projects/${fork.id}`)).body.forked_from_project.id).toBe(src.id);
    await admin().delete(`/api/v4/projects/${src.id}`).expect(202);
    expect(
      (
        await queryOne<{ f: number | null }>(t, 'select forked_from_project_id as f from projects where id = ?', [
          fork.id,
        ])
      )?.f,
    ).toBeNull();
  });
});

describe('GET /projects/:id/forks', () => {
  it('lists the visible forks with the projects list’s filters and pages, in one statement count for 1 and 20', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const src = await createProject(t, { namespace: g, path: 'base', visibility: 'public' });
    const u = await createUser(t);
    await createProject(t, { namespace: g, path: 'unrelated', visibility: 'public' });
    const mk = async (path: string, visibility: 'public' | 'private') => {
      const p = await createProject(t, { namespace: await createGroup(t, { visibility: 'public' }), path, visibility });
      await sql('update projects set forked_from_project_id = ? where id = ?', [src.id, p.id]);
      return p;
    };
    await mk('fork-a', 'public');
    const one = await t.countQueries(() => api(t, u.token).get(`/api/v4/projects/${src.id}/forks`).expect(200));
    await mk('fork-hidden', 'private');
    for (let i = 0; i < 19; i += 1) await mk(`fork-${i}`, 'public');
    const twenty = await t.countQueries(() => api(t, u.token).get(`/api/v4/projects/${src.id}/forks`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.result.headers['x-total']).toBe('20');
    expect(twenty.count).toBe(one.count);
    expect(twenty.result.body[0].forked_from_project.id).toBe(src.id);
    expect(keys(twenty.result.body[0])).toContain('permissions');
    const found = await api(t).get(`/api/v4/projects/${src.id}/forks?search=fork-a&simple=true`).expect(200);
    expect(found.body.map((p: { path: string }) => p.path)).toEqual(['fork-a']);
    expect(keys(found.body[0])).toEqual(PROJECT_SIMPLE_KEYS);
    expect(
      (await admin().get(`/api/v4/projects/${src.id}/forks?per_page=5&order_by=path&sort=asc`)).headers['x-total'],
    ).toBe('21');
    expect((await api(t).get('/api/v4/projects/999999/forks')).body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('POST /projects/:id/fork/:forked_from_id and DELETE /projects/:id/fork', () => {
  it('links as admin (201, 409 Project already forked), unlinks as Owner (204, then 304), keeping forks_count', async () => {
    const u = await createUser(t);
    const src = await createProject(t, { namespace: await createGroup(t), path: 'src' });
    const mine = await createProject(t, { namespace: { id: u.namespaceId }, path: 'mine' });
    expect((await api(t).post(`/api/v4/projects/${mine.id}/fork/${src.id}`)).status).toBe(401);
    expect((await api(t, u.token).post(`/api/v4/projects/${mine.id}/fork/${src.id}`)).status).toBe(403);
    expect((await admin().post(`/api/v4/projects/${mine.id}/fork/999999`)).body).toEqual({
      message: '404 Project Not Found',
    });
    const linked = await admin().post(`/api/v4/projects/${mine.id}/fork/${src.id}`);
    expect(linked.status).toBe(201);
    expect(linked.body.forked_from_project.id).toBe(src.id);
    expect(await forksCount(src.id)).toBe(1);
    const again = await admin().post(`/api/v4/projects/${mine.id}/fork/${src.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Project already forked' });

    const master = await createUser(t);
    await addProjectMember(t, mine, master, 40);
    expect((await api(t, master.token).delete(`/api/v4/projects/${mine.id}/fork`)).status).toBe(403);
    const removed = await api(t, u.token).delete(`/api/v4/projects/${mine.id}/fork`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(await forksCount(src.id)).toBe(0);
    expect((await api(t, u.token).delete(`/api/v4/projects/${mine.id}/fork`)).status).toBe(304);
    expect((await api(t).delete(`/api/v4/projects/${mine.id}/fork`)).status).toBe(401);
  });
});

describe('GET /projects/:id/users', () => {
  it('lists direct, group (incl. ancestors) and shared-group members as UserBasic, with search and pages', async () => {
    const parent = await createGroup(t, { path: 'p' });
    const g = await createGroup(t, { path: 'c', parent, visibility: 'public' });
    const p = await createProject(t, { namespace: g, visibility: 'public' });
    const direct = await createUser(t, { username: 'direct_dev', name: 'Dora Direct' });
    const inGroup = await createUser(t, { username: 'group_member', name: 'Gus' });
    const inParent = await createUser(t, { username: 'parent_member', name: 'Pam' });
    const viaShare = await createUser(t, { username: 'shared_member', name: 'Sam' });
    const expired = await createUser(t, { username: 'expired_member' });
    await createUser(t, { username: 'stranger' });
    await addProjectMember(t, p, direct, 30);
    await addGroupMember(t, g, inGroup, 10);
    await addGroupMember(t, parent, inParent, 50);
    const other = await createGroup(t);
    await addGroupMember(t, other, viaShare, 20);
    await shareProject(t, p, other, 30);
    await addProjectMember(t, p, expired, 30);
    await sql(`update project_members set expires_at = current_date - 1 where user_id = ?`, [expired.id]);
    const res = await api(t).get(`/api/v4/projects/${p.id}/users`).expect(200);
    expect(res.body.map((u: { username: string }) => u.username)).toEqual([
      'direct_dev',
      'group_member',
      'parent_member',
      'shared_member',
    ]);
    expect(keys(res.body[0])).toEqual([...USER_BASIC_KEYS].sort());
    expect(res.headers['x-total']).toBe('4');
    expect(
      (await api(t).get(`/api/v4/projects/${p.id}/users?search=mem`)).body.map((u: { username: string }) => u.username),
    ).toEqual(['group_member', 'parent_member', 'shared_member']); // by name: Gus, Pam, Sam
    expect(
      (await api(t).get(`/api/v4/projects/${p.id}/users?search=sam`)).body.map((u: { username: string }) => u.username),
    ).toEqual(['shared_member']);
    expect(
      (await api(t).get(`/api/v4/projects/${p.id}/users?per_page=1&page=2`)).body.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['group_member']);
    const priv = await createProject(t, { namespace: { id: direct.namespaceId }, visibility: 'private' });
    expect((await api(t).get(`/api/v4/projects/${priv.id}/users`)).body).toEqual({ message: '404 Project Not Found' });
    expect(
      (await api(t, direct.token).get(`/api/v4/projects/${priv.id}/users`)).body.map((u: { id: number }) => u.id),
    ).toEqual([direct.id]);
  });
});

describe('GraphQL twins', () => {
  it('forkProject, Project.visibleForks, Project.projectMembers and the new Project fields answer as REST', async () => {
    const u = await createUser(t, { username: 'gq' });
    const src = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'public' }),
      path: 'gsrc',
      visibility: 'public',
    });
    const forked = await api(t, u.token)
      .graphql(
        `mutation($id: ID!) { projectFork(input: { id: $id }) { project { id: databaseId forkedFromProject { id: databaseId } owner { username } links { self issues } lfsEnabled importStatus } errors } }`,
        { id: String(src.id) },
      )
      .expect(200);
    expect(forked.body.data.projectFork.errors).toEqual([]);
    const f = forked.body.data.projectFork.project;
    expect(f).toEqual({
      id: f.id,
      forkedFromProject: { id: src.id },
      owner: { username: 'gq' },
      links: {
        self: `http://gitlab.test/api/v4/projects/${f.id}`,
        issues: `http://gitlab.test/api/v4/projects/${f.id}/issues`,
      },
      lfsEnabled: true,
      importStatus: 'none',
    });
    const rest = (await api(t, u.token).get(`/api/v4/projects/${f.id}`)).body;
    expect(rest._links.self).toBe(f.links.self);
    expect(rest.permissions).toEqual({
      project_access: { access_level: 40, notification_level: 3 },
      group_access: null,
    });
    const q = await api(t, u.token)
      .graphql(
        `{ project(fullPath: "${src.fullPath}") { visibleForks { count nodes { id: databaseId permissions { projectAccess { accessLevel } groupAccess { accessLevel } } } } } fork: project(fullPath: "gq/gsrc") { projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]) { nodes { user { username } } } } }`,
      )
      .expect(200);
    expect(q.body.data.project.visibleForks).toEqual({
      count: 1,
      nodes: [{ id: f.id, permissions: { projectAccess: { accessLevel: 40 }, groupAccess: null } }],
    });
    // The users of the fork (GET /projects/:id/users): its owner, a direct member of their personal project.
    expect(q.body.data.fork.projectMembers.nodes).toEqual([{ user: { username: 'gq' } }]);
    expect(
      (await api(t, u.token).get(`/api/v4/projects/${f.id}/users`)).body.map((x: { username: string }) => x.username),
    ).toEqual(['gq']);
    const denied = await api(t, u.token)
      .graphql(
        `mutation { projectForkLink(input: { id: "${f.id}", forkedFromId: "${src.id}" }) { project { id } errors } }`,
      )
      .expect(200);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const conflict = await admin()
      .graphql(
        `mutation { projectForkLink(input: { id: "${f.id}", forkedFromId: "${src.id}" }) { project { id } errors } }`,
      )
      .expect(200);
    expect(conflict.body).toEqual({
      data: { projectForkLink: { project: null, errors: ['Project already forked'] } },
    });
    expect(
      (await api(t, u.token).graphql(`mutation { projectForkUnlink(input: { id: "${f.id}" }) { changed errors } }`))
        .body,
    ).toEqual({ data: { projectForkUnlink: { changed: true, errors: [] } } });
  });
});

describe('Project.visibleForks', () => {
  it("lists the forks the caller may see, newest first, as GET /projects/:id/forks; GitLab's minimumAccessLevel; batched over a list", async () => {
    const a = await createUser(t, { username: 'fork-a' });
    const b = await createUser(t, { username: 'fork-b' });
    const stranger = await createUser(t);
    const group = await createGroup(t, { path: 'fk', visibility: 'public' });
    const src = await createProject(t, { namespace: group, path: 'src', visibility: 'public' });
    await api(t, a.token).post(`/api/v4/projects/${src.id}/fork`).expect(201);
    const fb = (await api(t, b.token).post(`/api/v4/projects/${src.id}/fork`).expect(201)).body;
    await api(t, b.token).put(`/api/v4/projects/${fb.id}`).send({ visibility: 'private' }).expect(200);
    const list = async (token: string | undefined, args = '') => {
      const res = await api(t, token).graphql(
        `{ project(fullPath: "fk/src") { visibleForks${args} { count nodes { fullPath } } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.project.visibleForks;
    };
    // b sees its private fork too; newest first.
    expect(await list(b.token)).toEqual({ count: 2, nodes: [{ fullPath: 'fork-b/src' }, { fullPath: 'fork-a/src' }] });
    expect(await list(stranger.token)).toEqual({ count: 1, nodes: [{ fullPath: 'fork-a/src' }] });
    expect(await list(undefined)).toEqual({ count: 1, nodes: [{ fullPath: 'fork-a/src' }] });
    const rest = await api(t, stranger.token).get(`/api/v4/projects/${src.id}/forks?order_by=created_at&sort=desc`);
    expect(rest.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['fork-a/src']);
    // GitLab: with minimumAccessLevel, the forks where the caller has that level; none for anonymous callers.
    expect(await list(a.token, '(minimumAccessLevel: MAINTAINER)')).toEqual({
      count: 1,
      nodes: [{ fullPath: 'fork-a/src' }],
    });
    expect(await list(stranger.token, '(minimumAccessLevel: GUEST)')).toEqual({ count: 0, nodes: [] });
    expect(await list(undefined, '(minimumAccessLevel: GUEST)')).toEqual({ count: 0, nodes: [] });
    // Batched over a page of projects: each its own forks.
    const many = await api(t, b.token).graphql(
      '{ projects(search: "src", sort: "id_asc") { nodes { fullPath visibleForks(first: 1) { count nodes { fullPath } } } } }',
    );
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.projects.nodes).toEqual([
      { fullPath: 'fk/src', visibleForks: { count: 2, nodes: [{ fullPath: 'fork-b/src' }] } },
      { fullPath: 'fork-a/src', visibleForks: { count: 0, nodes: [] } },
      { fullPath: 'fork-b/src', visibleForks: { count: 0, nodes: [] } },
    ]);
  });
});
