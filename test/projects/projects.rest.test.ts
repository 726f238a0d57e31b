import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
} from '../support/factories';
import { PERSONAL_PROJECT_KEYS, PROJECT_KEYS, PROJECT_WITH_ACCESS_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('POST /projects', () => {
  it('creates in the caller’s namespace by default (creator becomes Master), 201 with runners_token', async () => {
    const u = await createUser(t, { username: 'dev' });
    const res = await api(t, u.token)
      .post('/api/v4/projects')
      .type('form')
      .send('name=My App&description=d&visibility=internal&tag_list=a,b&issues_enabled=false');
    expect(res.status).toBe(201);
    // GitLab 10.3: a personal project shows its `owner`.
    expect(keys(res.body)).toEqual([...PERSONAL_PROJECT_KEYS, 'runners_token'].sort());
    expect(res.body).toMatchObject({
      name: 'My App',
      path: 'my-app',
      path_with_namespace: 'dev/my-app',
      name_with_namespace: 'dev / My App',
      visibility: 'internal',
      tag_list: ['a', 'b'],
      issues_enabled: false,
      creator_id: u.id,
      http_url_to_repo: 'http://gitlab.test/dev/my-app.git',
      ssh_url_to_repo: 'git@gitlab.test:dev/my-app.git',
      archived: false,
    });
    expect(res.body.namespace).toEqual({
      id: u.namespaceId,
      name: 'dev',
      path: 'dev',
      kind: 'user',
      full_path: 'dev',
      parent_id: null,
    });
    expect(
      (
        await queryOne<{ access_level: number }>(t, 'select access_level from project_members where project_id = ?', [
          res.body.id,
        ])
      )?.access_level,
    ).toBe(40);
  });

  it('needs name or path, Master in the target group, and unique names/paths', async () => {
    const u = await createUser(t);
    expect((await api(t, u.token).post('/api/v4/projects').send({})).body).toEqual({
      error: 'name, path are missing, at least one parameter must be provided',
    });
    const g = await createGroup(t, { path: 'team' });
    await addGroupMember(t, g, u, 30);
    expect((await api(t, u.token).post('/api/v4/projects').send({ name: 'x', namespace_id: g.id })).body).toEqual({
      message: { namespace: ['is not valid'] },
    });
    await addGroupMember(t, await createGroup(t), u, 10);
    const masterGroup = await createGroup(t, { path: 'mg', visibility: 'internal' });
    await addGroupMember(t, masterGroup, u, 40);
    const created = await api(t, u.token).post('/api/v4/projects').send({ path: 'svc', namespace_id: masterGroup.id });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('svc');
    const dup = await api(t, u.token).post('/api/v4/projects').send({ path: 'SVC', namespace_id: masterGroup.id });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
    const tooOpen = await api(t, u.token)
      .post('/api/v4/projects')
      .send({ path: 'open', namespace_id: masterGroup.id, visibility: 'public' });
    expect(tooOpen.body).toEqual({ message: { visibility_level: ['public is not allowed in a internal group.'] } });
  });

  it('answers 401 without a token', async () => {
    expect((await api(t).post('/api/v4/projects').send({ name: 'x' })).status).toBe(401);
  });
});

describe('GET /projects and GET /projects/:id', () => {
  it('lists what the caller may see with filters and pagination', async () => {
    const u = await createUser(t);
    const g = await createGroup(t, { visibility: 'public' });
    await createProject(t, { namespace: g, name: 'Pub', visibility: 'public' });
    await createProject(t, { namespace: g, name: 'Int', visibility: 'internal' });
    const priv = await createProject(t, { namespace: g, name: 'Priv', visibility: 'private' });
    const names = (r: { body: { name: string }[] }) => r.body.map((p) => p.name).sort();
    expect(names(await api(t).get('/api/v4/projects'))).toEqual(['Pub']);
    expect(names(await api(t, u.token).get('/api/v4/projects'))).toEqual(['Int', 'Pub']);
    await addProjectMember(t, priv, u, 10);
    expect(names(await api(t, u.token).get('/api/v4/projects'))).toEqual(['Int', 'Priv', 'Pub']);
    expect(names(await api(t, u.token).get('/api/v4/projects?visibility=private'))).toEqual(['Priv']);
    expect(names(await api(t, u.token).get('/api/v4/projects?membership=true'))).toEqual(['Priv']);
    expect(names(await api(t, u.token).get('/api/v4/projects?search=pu'))).toEqual(['Pub']);
    const page = await api(t, ROOT_TOKEN).get('/api/v4/projects?per_page=2&order_by=name&sort=asc');
    expect(page.headers['x-total']).toBe('3');
    expect(page.body.map((p: { name: string }) => p.name)).toEqual(['Int', 'Priv']);
  });

  it('shows runners_token only to Masters and above', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const p = await createProject(t, { namespace: g, visibility: 'public' });
    const dev = await createUser(t);
    const master = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    await addGroupMember(t, g, master, 40);
    // GitLab 10.3: signed-in callers get ProjectWithAccess (`permissions`).
    expect(keys((await api(t, dev.token).get(`/api/v4/projects/${p.id}`)).body)).toEqual(PROJECT_WITH_ACCESS_KEYS);
    expect(keys((await api(t, master.token).get(`/api/v4/projects/${p.id}`)).body)).toEqual(
      [...PROJECT_WITH_ACCESS_KEYS, 'runners_token'].sort(),
    );
    expect(keys((await api(t).get(`/api/v4/projects/${p.id}`)).body)).toEqual(PROJECT_KEYS);
  });

  it('finds a project by URL-encoded full path and hides private ones (404)', async () => {
    const g = await createGroup(t, { path: 'grp' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects/grp%2Fapp')).body.id).toBe(p.id);
    expect((await api(t, (await createUser(t)).token).get('/api/v4/projects/grp%2Fapp')).body).toEqual({
      message: '404 Project Not Found',
    });
    expect((await api(t).get('/api/v4/projects/99999999999')).status).toBe(404);
  });

  it('issues the same number of SQL statements for 1 and 20 projects', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const u = await createUser(t);
    await createProject(t, { namespace: g, visibility: 'public' });
    const one = await t.countQueries(() => api(t, u.token).get('/api/v4/projects').expect(200));
    for (let i = 0; i < 19; i += 1) await createProject(t, { namespace: g, visibility: 'public' });
    const twenty = await t.countQueries(() => api(t, u.token).get('/api/v4/projects').expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('PUT, DELETE, archive, star', () => {
  it('Masters update; Developers get 403; the change persists', async () => {
    const g = await createGroup(t);
    const p = await createProject(t, { namespace: g });
    const dev = await createUser(t);
    const master = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    await addProjectMember(t, p, master, 40);
    expect((await api(t, dev.token).put(`/api/v4/projects/${p.id}`).send({ description: 'x' })).body).toEqual({
      message: '403 Forbidden',
    });
    const res = await api(t, master.token)
      .put(`/api/v4/projects/${p.id}`)
      .send({ description: 'new', default_branch: 'main', wiki_enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ description: 'new', default_branch: 'main', wiki_enabled: false });
    expect((await api(t, dev.token).get(`/api/v4/projects/${p.id}`)).body.description).toBe('new');
  });

  it('archives and unarchives (201), stars (201, then 304)', async () => {
    const u = await createUser(t);
    const created = await api(t, u.token).post('/api/v4/projects').send({ name: 'p' });
    const id = created.body.id;
    expect((await api(t, u.token).post(`/api/v4/projects/${id}/archive`)).body.archived).toBe(true);
    expect((await api(t, u.token).get(`/api/v4/projects?archived=true`)).body.map((p: { id: number }) => p.id)).toEqual(
      [id],
    );
    expect((await api(t, u.token).post(`/api/v4/projects/${id}/unarchive`)).body.archived).toBe(false);
    const star = await api(t, u.token).post(`/api/v4/projects/${id}/star`);
    expect([star.status, star.body.star_count]).toEqual([201, 1]);
    const again = await api(t, u.token).post(`/api/v4/projects/${id}/star`);
    expect([again.status, again.text]).toEqual([304, '']);
  });

  it('unstars (201 with star_count decremented, then 304); a project the caller cannot see is 404; anonymous 401', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const id = (await api(t, u.token).post('/api/v4/projects').send({ name: 'starry', visibility: 'public' })).body.id;
    await api(t, u.token).post(`/api/v4/projects/${id}/star`).expect(201);
    await api(t, other.token).post(`/api/v4/projects/${id}/star`).expect(201);
    const unstar = await api(t, u.token).post(`/api/v4/projects/${id}/unstar`);
    expect([unstar.status, unstar.body.id, unstar.body.star_count]).toEqual([201, id, 1]);
    const again = await api(t, u.token).post(`/api/v4/projects/${id}/unstar`);
    expect([again.status, again.text]).toEqual([304, '']);
    expect((await api(t, other.token).get(`/api/v4/projects/${id}`)).body.star_count).toBe(1);
    const gql = await api(t, other.token).graphql(
      `mutation { projectUnstar(input: { id: "${id}" }) { star { changed project { starCount } } errors } }`,
    );
    expect(gql.body).toEqual({
      data: { projectUnstar: { star: { changed: true, project: { starCount: 0 } }, errors: [] } },
    });
    const hidden = (await api(t, u.token).post('/api/v4/projects').send({ name: 'hidden' })).body.id;
    expect((await api(t, other.token).post(`/api/v4/projects/${hidden}/unstar`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
    expect((await api(t).post(`/api/v4/projects/${id}/unstar`).expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
  });

  it('only Owners delete (204); Masters get 403', async () => {
    const g = await createGroup(t);
    const p = await createProject(t, { namespace: g });
    const master = await createUser(t);
    const owner = await createUser(t);
    await addGroupMember(t, g, master, 40);
    await addGroupMember(t, g, owner, 50);
    expect((await api(t, master.token).delete(`/api/v4/projects/${p.id}`)).status).toBe(403);
    const deleted = await api(t, owner.token).delete(`/api/v4/projects/${p.id}`);
    // GitLab 10.3: `accepted!` (its destroy is asynchronous).
    expect([deleted.status, deleted.body]).toEqual([202, { message: '202 Accepted' }]);
    expect((await api(t, owner.token).get(`/api/v4/projects/${p.id}`)).status).toBe(404);
  });
});

describe('POST /projects/:id/share and DELETE /projects/:id/share/:group_id', () => {
  it('shares with a visible group (201), refuses duplicates (409) and unshares (204)', async () => {
    const u = await createUser(t);
    const p = (await api(t, u.token).post('/api/v4/projects').send({ name: 'p' })).body;
    const g = await createGroup(t, { visibility: 'internal', name: 'Team' });
    const res = await api(t, u.token)
      .post(`/api/v4/projects/${p.id}/share`)
      .send({ group_id: g.id, group_access: 30, expires_at: '2099-12-31' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      project_id: p.id,
      group_id: g.id,
      group_access: 30,
      expires_at: '2099-12-31',
    });
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).body.shared_with_groups).toEqual([
      {
        group_id: g.id,
        group_name: 'Team',
        group_full_path: g.fullPath,
        group_access_level: 30,
        expires_at: '2099-12-31',
      },
    ]);
    const dup = await api(t, u.token).post(`/api/v4/projects/${p.id}/share`).send({ group_id: g.id, group_access: 30 });
    expect([dup.status, dup.body]).toEqual([409, { message: 'Group already shared with this group' }]);
    expect((await api(t, u.token).delete(`/api/v4/projects/${p.id}/share/${g.id}`)).status).toBe(204);
    expect((await api(t, u.token).delete(`/api/v4/projects/${p.id}/share/${g.id}`)).body).toEqual({
      message: '404 Group Link Not Found',
    });
  });

  it('validates group_access and hides invisible groups', async () => {
    const u = await createUser(t);
    const p = (await api(t, u.token).post('/api/v4/projects').send({ name: 'p' })).body;
    const hidden = await createGroup(t);
    expect(
      (await api(t, u.token).post(`/api/v4/projects/${p.id}/share`).send({ group_id: hidden.id, group_access: 30 }))
        .body,
    ).toEqual({ message: '404 Group Not Found' });
    expect(
      (await api(t, u.token).post(`/api/v4/projects/${p.id}/share`).send({ group_id: hidden.id, group_access: 35 }))
        .body,
    ).toEqual({ error: 'group_access does not have a valid value' });
    expect((await api(t, u.token).post(`/api/v4/projects/${p.id}/share`).send({})).body).toEqual({
      error: 'group_id is missing, group_access is missing',
    });
    // Checked in the service, so GraphQL refuses it too (and before any lookup: a hidden project gives 400, not 404).
    const gql = await api(t, u.token).graphql(
      `mutation { projectShare(input: { id: "${p.id}", groupId: ${hidden.id}, groupAccess: 35 }) { projectGroupLink { groupId } errors } }`,
    );
    expect(gql.body).toEqual({
      data: { projectShare: { projectGroupLink: null, errors: ['group_access does not have a valid value'] } },
    });
    expect(
      (
        await api(t, (await createUser(t)).token)
          .post(`/api/v4/projects/${p.id}/share`)
          .send({ group_id: hidden.id, group_access: 35 })
      ).status,
    ).toBe(400);
    const dupName = await api(t, u.token).post('/api/v4/projects').send({ name: 'p', path: 'other-path' });
    expect(dupName.body).toEqual({ message: { name: ['has already been taken'] } });
  });
});
