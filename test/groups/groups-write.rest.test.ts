import { addGroupMember, createGroup, createProject, createUser, queryOne, shareProject } from '../support/factories';
import { GROUP_DETAIL_KEYS, GROUP_UPDATE_KEYS, PROJECT_KEYS_WITH_TOKEN, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

describe('POST /groups', () => {
  it('returns 401 for anonymous callers', async () => {
    const res = await api(t).post('/api/v4/groups').send({ name: 'x', path: 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('creates a private group by default, makes the creator Owner and answers the detail form', async () => {
    const u = await createUser(t);
    const res = await api(t, u.token)
      .post('/api/v4/groups')
      .send({ name: 'My Group', path: 'my-group', description: 'about', lfs_enabled: false });
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual(GROUP_DETAIL_KEYS);
    expect(res.body).toMatchObject({
      name: 'My Group',
      path: 'my-group',
      full_path: 'my-group',
      visibility: 'private',
      lfs_enabled: false,
      description: 'about',
      projects: [],
      shared_projects: [],
    });
    const member = await queryOne<{ access_level: number }>(
      t,
      'select access_level from group_members where group_id = ? and user_id = ?',
      [res.body.id, u.id],
    );
    expect(member?.access_level).toBe(50);
    expect((await api(t, u.token).get('/api/v4/groups/my-group')).status).toBe(200);
  });

  it('reports every missing required parameter before checking permissions', async () => {
    const u = await createUser(t, { canCreateGroup: false });
    const res = await api(t, u.token).post('/api/v4/groups').send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name is missing, path is missing' });
  });

  it('refuses users without the create-group right', async () => {
    const u = await createUser(t, { canCreateGroup: false });
    const res = await api(t, u.token).post('/api/v4/groups').send({ name: 'x', path: 'x' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });

  it('answers validation failures with the reference string body', async () => {
    const cases: [Record<string, string>, string][] = [
      [
        { name: 'ok', path: '-bad' },
        `Failed to save group {:path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}`,
      ],
      [{ name: 'ok', path: 'admin' }, 'Failed to save group {:path=>["admin is a reserved name"]}'],
      [
        { name: 'bad/name', path: 'fine' },
        `Failed to save group {:name=>["can contain only letters, digits, '_', '.', dash and space."]}`,
      ],
      [
        { name: 'n'.repeat(256), path: 'long' },
        'Failed to save group {:name=>["is too long (maximum is 255 characters)"]}',
      ],
      [
        { name: 'ok', path: 'p'.repeat(256) },
        'Failed to save group {:path=>["is too long (maximum is 255 characters)"]}',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api(t, ROOT_TOKEN).post('/api/v4/groups').send(body);
      expect({ body, status: res.status, res: res.body }).toEqual({ body, status: 400, res: { message } });
    }
  });

  it('rejects a path taken by another group or by a username, case-insensitively', async () => {
    await createGroup(t, { path: 'taken' });
    const u = await createUser(t, { username: 'someone' });
    for (const path of ['TAKEN', 'someone']) {
      const res = await api(t, u.token)
        .post('/api/v4/groups')
        .send({ name: `n-${path}`, path });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    }
    // GraphQL: GitLab's full messages in the payload's errors, not REST's Ruby hash dump.
    const gql = await api(t, u.token).graphql(
      'mutation { groupCreate(input: { name: "again", path: "taken" }) { group { id } errors } }',
    );
    expect(gql.body).toEqual({
      data: { groupCreate: { group: null, errors: ['Path has already been taken'] } },
    });
  });

  it('lets exactly one of two concurrent creates of the same path win (the unique index decides)', async () => {
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        api(t, ROOT_TOKEN)
          .post('/api/v4/groups')
          .send({ name: `Race ${i}`, path: 'race' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    const count = await queryOne<{ n: string }>(t, `select count(*) as n from namespaces where path = 'race'`);
    expect(Number(count?.n)).toBe(1);
  });

  it('creates subgroups for Owners of the parent only; the parent must be visible; visibility not above the parent', async () => {
    const parent = await createGroup(t, { path: 'parent', visibility: 'internal' });
    const owner = await createUser(t);
    const master = await createUser(t);
    const stranger = await createUser(t);
    await addGroupMember(t, parent, owner, 50);
    await addGroupMember(t, parent, master, 40);
    const ok = await api(t, owner.token)
      .post('/api/v4/groups')
      .send({ name: 'Sub', path: 'sub', parent_id: parent.id, visibility: 'internal' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ full_path: 'parent/sub', parent_id: parent.id, full_name: `${parent.name} / Sub` });
    expect(
      (await api(t, master.token).post('/api/v4/groups').send({ name: 'S2', path: 's2', parent_id: parent.id })).status,
    ).toBe(403);
    const hidden = await createGroup(t, { visibility: 'private' });
    const notVisible = await api(t, stranger.token)
      .post('/api/v4/groups')
      .send({ name: 'S3', path: 's3', parent_id: hidden.id });
    expect(notVisible.status).toBe(404);
    expect(notVisible.body).toEqual({ message: '404 Group Not Found' });
    const tooOpen = await api(t, owner.token)
      .post('/api/v4/groups')
      .send({ name: 'S4', path: 's4', parent_id: parent.id, visibility: 'public' });
    expect(tooOpen.status).toBe(400);
    expect(tooOpen.body).toEqual({
      message:
        'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a internal visibility."]}',
    });
    const reserved = await api(t, owner.token)
      .post('/api/v4/groups')
      .send({ name: 'S5', path: 'edit', parent_id: parent.id });
    expect(reserved.body).toEqual({ message: 'Failed to save group {:path=>["edit is a reserved name"]}' });
    expect(
      (await api(t, owner.token).post('/api/v4/groups').send({ name: 'S6', path: 's6', parent_id: 99999999999 }))
        .status,
    ).toBe(404);
  });

  it('rejects unknown visibility values', async () => {
    const res = await api(t, ROOT_TOKEN).post('/api/v4/groups').send({ name: 'v', path: 'v', visibility: 'secret' });
    expect(res.body).toEqual({ error: 'visibility does not have a valid value' });
  });
});

describe('PUT /groups/:id', () => {
  it('lets an Owner update fields and answers the update form with projects carrying `public`', async () => {
    const g = await createGroup(t, { path: 'old', visibility: 'public' });
    await createProject(t, { namespace: g, visibility: 'public' });
    const owner = await createUser(t);
    await addGroupMember(t, g, owner, 50);
    const res = await api(t, owner.token)
      .put(`/api/v4/groups/${g.id}`)
      .type('form')
      .send('name=New Name&description=desc&request_access_enabled=true&lfs_enabled=false');
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(GROUP_UPDATE_KEYS);
    expect(res.body).toMatchObject({
      name: 'New Name',
      description: 'desc',
      request_access_enabled: true,
      lfs_enabled: false,
      visibility: 'public',
    });
    expect(keys(res.body.projects[0])).toEqual([...PROJECT_KEYS_WITH_TOKEN, 'public'].sort());
    expect(res.body.projects[0].public).toBe(true);
    expect((await api(t).get(`/api/v4/groups/${g.id}`)).body.name).toBe('New Name');
  });

  it('renames the path of the whole subtree in one go', async () => {
    const g = await createGroup(t, { path: 'top', visibility: 'public' });
    const child = await createGroup(t, { path: 'child', parent: g, visibility: 'public' });
    const grand = await createGroup(t, { path: 'grand', parent: child, visibility: 'public' });
    const p = await createProject(t, { namespace: grand, path: 'app', visibility: 'public' });
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ path: 'renamed' })).status).toBe(200);
    expect((await api(t).get(`/api/v4/groups/${grand.id}`)).body.full_path).toBe('renamed/child/grand');
    expect((await api(t).get('/api/v4/groups/renamed%2Fchild%2Fgrand')).body.id).toBe(grand.id);
    expect((await api(t).get(`/api/v4/projects/${p.id}`)).body.path_with_namespace).toBe('renamed/child/grand/app');
  });

  it('refuses non-owners (403), hides invisible groups (404) and needs a token (401)', async () => {
    const g = await createGroup(t, { visibility: 'internal' });
    const master = await createUser(t);
    await addGroupMember(t, g, master, 40);
    expect((await api(t, master.token).put(`/api/v4/groups/${g.id}`).send({ name: 'x' })).body).toEqual({
      message: '403 Forbidden',
    });
    const hidden = await createGroup(t, { visibility: 'private' });
    expect((await api(t, master.token).put(`/api/v4/groups/${hidden.id}`).send({ name: 'x' })).status).toBe(404);
    expect((await api(t).put(`/api/v4/groups/${g.id}`).send({ name: 'x' })).status).toBe(401);
  });

  it('enforces the visibility rules against projects, subgroups and the parent', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    await createProject(t, { namespace: g, visibility: 'internal' });
    const res = await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ visibility: 'private' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        visibility_level: ['private is not allowed since this group contains projects with higher visibility.'],
      },
    });
    const parent = await createGroup(t, { visibility: 'public' });
    await createGroup(t, { visibility: 'public', parent });
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/groups/${parent.id}`).send({ visibility: 'internal' })).body).toEqual(
      {
        message: { visibility_level: ['internal is not allowed since there are sub-groups with higher visibility.'] },
      },
    );
    const closed = await createGroup(t, { visibility: 'private' });
    const child = await createGroup(t, { visibility: 'private', parent: closed });
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/groups/${child.id}`).send({ visibility: 'public' })).body).toEqual({
      message: { visibility_level: ['public is not allowed since the parent group has a private visibility.'] },
    });
  });

  it('answers a duplicate path with the normal validation body', async () => {
    await createGroup(t, { path: 'one' });
    const two = await createGroup(t, { path: 'two' });
    const res = await api(t, ROOT_TOKEN).put(`/api/v4/groups/${two.id}`).send({ path: 'one' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
  });
});

describe('DELETE /groups/:id', () => {
  it('removes the group, its subgroups and their projects; 204 with an empty body', async () => {
    const g = await createGroup(t, { path: 'doomed' });
    const sub = await createGroup(t, { parent: g });
    await createProject(t, { namespace: sub });
    const owner = await createUser(t);
    await addGroupMember(t, g, owner, 50);
    const res = await api(t, owner.token).delete('/api/v4/groups/doomed');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const left = await queryOne<{ n: string; p: string }>(
      t,
      `select (select count(*) from namespaces where kind = 'group') as n, (select count(*) from projects) as p`,
    );
    expect([Number(left?.n), Number(left?.p)]).toEqual([0, 0]);
  });

  it('refuses Masters (403) and hides private groups from strangers (404)', async () => {
    const g = await createGroup(t);
    const master = await createUser(t);
    await addGroupMember(t, g, master, 40);
    expect((await api(t, master.token).delete(`/api/v4/groups/${g.id}`)).status).toBe(403);
    expect((await api(t, (await createUser(t)).token).delete(`/api/v4/groups/${g.id}`)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});

describe('POST /groups/:id/projects/:project_id', () => {
  it('checks admin first: a non-admin gets 403 even for bogus ids', async () => {
    const u = await createUser(t);
    const res = await api(t, u.token).post('/api/v4/groups/999/projects/999');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden' });
  });

  it('moves the project (by id or path) and answers 201 with the target group detail', async () => {
    const from = await createGroup(t, { path: 'from', visibility: 'public' });
    const to = await createGroup(t, { path: 'to', visibility: 'internal' });
    const p = await createProject(t, { namespace: from, path: 'app', visibility: 'public' });
    const res = await api(t, ROOT_TOKEN).post(`/api/v4/groups/${to.id}/projects/from%2Fapp`);
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual(GROUP_DETAIL_KEYS);
    expect(res.body.id).toBe(to.id);
    expect(res.body.projects.map((x: { id: number }) => x.id)).toEqual([p.id]);
    const moved = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}`);
    expect(moved.body.path_with_namespace).toBe('to/app');
    expect(moved.body.visibility).toBe('internal'); // not more visible than its new group
  });

  it('answers 404 for unknown groups or projects and 400 with the reference message on conflicts', async () => {
    const to = await createGroup(t);
    const from = await createGroup(t);
    const p = await createProject(t, { namespace: from, path: 'same' });
    await createProject(t, { namespace: to, path: 'same' });
    expect((await api(t, ROOT_TOKEN).post(`/api/v4/groups/424242/projects/${p.id}`)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect((await api(t, ROOT_TOKEN).post(`/api/v4/groups/${to.id}/projects/424242`)).body).toEqual({
      message: '404 Project Not Found',
    });
    const clash = await api(t, ROOT_TOKEN).post(`/api/v4/groups/${to.id}/projects/${p.id}`);
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({
      message:
        'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}',
    });
    const same = await api(t, ROOT_TOKEN).post(`/api/v4/groups/${from.id}/projects/${p.id}`);
    expect(same.body).toEqual({
      message: 'Failed to transfer project {:new_namespace=>["Transfer failed, please contact an admin."]}',
    });
  });
});

describe('/groups/:id/custom_attributes', () => {
  it('lets administrators set, read, list and delete attributes; others get 403', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const u = await createUser(t);
    expect((await api(t, u.token).get(`/api/v4/groups/${g.id}/custom_attributes`)).status).toBe(403);
    expect((await api(t).get(`/api/v4/groups/${g.id}/custom_attributes`)).status).toBe(401);
    const set = await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}/custom_attributes/tier`).send({ value: 'gold' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ key: 'tier', value: 'gold' });
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}/custom_attributes/tier`).send({ value: 'silver' }).expect(200);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/custom_attributes`)).body).toEqual([
      { key: 'tier', value: 'silver' },
    ]);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/custom_attributes/tier`)).body).toEqual({
      key: 'tier',
      value: 'silver',
    });
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}/custom_attributes/x`)).body).toEqual({
      error: 'value is missing',
    });
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}/custom_attributes/tier`)).status).toBe(204);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/custom_attributes/tier`)).body).toEqual({
      message: '404 Custom Attribute Not Found',
    });
  });
});

describe('shared projects through groups', () => {
  it('a member of a group a private project is shared with can read it', async () => {
    const g = await createGroup(t);
    const u = await createUser(t);
    await addGroupMember(t, g, u, 10);
    const owner = await createGroup(t);
    const p = await createProject(t, { namespace: owner });
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(404);
    await shareProject(t, p, g, 30);
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`)).status).toBe(200);
  });
});
