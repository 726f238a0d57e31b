import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { PROJECT_KEYS, PROJECT_WITH_ACCESS_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GitLab 10.3 project fields that need no repository or CI, and the parameters that set them. */
const t = useTestApp();
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

describe('Project fields (GitLab 10.3 Entities::Project)', () => {
  it('has _links, import_status, import_error and the stored flags with their defaults', async () => {
    const g = await createGroup(t, { path: 'links', visibility: 'public' });
    const p = await createProject(t, { namespace: g, visibility: 'public' });
    await sql('update projects set merge_requests_enabled = false where id = ?', [p.id]);
    const body = (await api(t).get(`/api/v4/projects/${p.id}`).expect(200)).body;
    expect(keys(body)).toEqual(PROJECT_KEYS);
    const base = `http://gitlab.test/api/v4/projects/${p.id}`;
    // merge_requests is left out when merge requests are disabled (10.3's `mrs_available?`).
    expect(body._links).toEqual({
      self: base,
      issues: `${base}/issues`,
      repo_branches: `${base}/repository/branches`,
      labels: `${base}/labels`,
      events: `${base}/events`,
      members: `${base}/members`,
    });
    expect(body).toMatchObject({
      import_status: 'none',
      import_error: null,
      ci_config_path: null,
      lfs_enabled: true,
      resolve_outdated_diff_discussions: false,
      only_allow_merge_if_pipeline_succeeds: false,
      only_allow_merge_if_all_discussions_are_resolved: false,
      printing_merge_request_link_enabled: true,
    });
  });

  it('takes the 10.3 parameters on PUT (public_builds as public_jobs) and validates ci_config_path', async () => {
    const g = await createGroup(t);
    const p = await createProject(t, { namespace: g });
    await sql('update namespaces set lfs_enabled = false where id = ?', [g.id]);
    const admin = api(t, ROOT_TOKEN);
    expect((await admin.get(`/api/v4/projects/${p.id}`)).body.lfs_enabled).toBe(false);
    const put = await admin
      .put(`/api/v4/projects/${p.id}`)
      .type('form')
      .send(
        [
          'public_builds=false',
          'resolve_outdated_diff_discussions=true',
          'only_allow_merge_if_pipeline_succeeds=true',
          'only_allow_merge_if_all_discussions_are_resolved=true',
          'printing_merge_request_link_enabled=false',
          'lfs_enabled=true',
          'ci_config_path=build/ci.yml',
        ].join('&'),
      );
    expect(put.status).toBe(200);
    const expected = {
      public_jobs: false,
      resolve_outdated_diff_discussions: true,
      only_allow_merge_if_pipeline_succeeds: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
      printing_merge_request_link_enabled: false,
      lfs_enabled: true,
      ci_config_path: 'build/ci.yml',
    };
    expect(put.body).toMatchObject(expected);
    expect((await admin.get(`/api/v4/projects/${p.id}`)).body).toMatchObject(expected);
    for (const bad of ['/etc/ci.yml', 'a/../b.yml']) {
      const res = await admin.put(`/api/v4/projects/${p.id}`).send({ ci_config_path: bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { ci_config_path: ['cannot include leading slash or directory traversal.'] },
      });
    }
    expect((await admin.put(`/api/v4/projects/${p.id}`).send({ public_builds: 'maybe' })).body).toEqual({
      error: 'public_builds is invalid',
    });
  });

  it('shows ProjectWithAccess permissions to signed-in callers: their own project and group membership', async () => {
    const g = await createGroup(t, { visibility: 'internal' });
    const p = await createProject(t, { namespace: g, visibility: 'internal' });
    const u = await createUser(t);
    await addGroupMember(t, g, u, 30);
    await addProjectMember(t, p, u, 20);
    const one = (await api(t, u.token).get(`/api/v4/projects/${p.id}`).expect(200)).body;
    expect(keys(one)).toEqual(PROJECT_WITH_ACCESS_KEYS);
    expect(one.permissions).toEqual({
      project_access: { access_level: 20, notification_level: 3 },
      group_access: { access_level: 30, notification_level: 3 },
    });
    const stranger = await createUser(t);
    const list = (await api(t, stranger.token).get('/api/v4/projects').expect(200)).body;
    expect(list[0].permissions).toEqual({ project_access: null, group_access: null });
    expect(keys((await api(t, stranger.token).get('/api/v4/projects?simple=true')).body[0])).not.toContain(
      'permissions',
    );
    // Entities::Project (no permissions) on writes.
    expect(keys((await api(t, ROOT_TOKEN).post(`/api/v4/projects/${p.id}/archive`).expect(201)).body)).not.toContain(
      'permissions',
    );
  });

  it('keeps the list at one statement count for 1 and 20 rows with owners, forks and permissions', async () => {
    const u = await createUser(t);
    const src = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'public' }),
      name: 'origin',
      visibility: 'public',
    });
    const mk = async (i: number) => {
      const owner = await createUser(t);
      const p = await createProject(t, {
        namespace: { id: owner.namespaceId },
        name: `fork ${i}`,
        visibility: 'public',
      });
      await sql('update projects set forked_from_project_id = ? where id = ?', [src.id, p.id]);
    };
    await mk(0);
    // The fork source is never on the page itself (search), so its namespace is one batch in both cases.
    const list = () => api(t, u.token).get('/api/v4/projects?search=fork').expect(200);
    await list();
    const one = await t.countQueries(list);
    for (let i = 1; i < 20; i += 1) await mk(i);
    const twenty = await t.countQueries(list);
    expect(twenty.result.body).toHaveLength(20);
    expect(
      twenty.result.body.filter(
        (p: { owner?: unknown; forked_from_project?: unknown }) => p.owner && p.forked_from_project,
      ),
    ).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});
