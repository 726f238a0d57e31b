import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createProject, createUser } from '../support/factories';

/** GitLab 10.3's GET /projects `statistics`, `with_issues_enabled`, `with_merge_requests_enabled` and GET /projects/:id `statistics`. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe('project statistics and feature filters', () => {
  it("statistics=true adds GitLab 10.3's ProjectStatistics (repository numbers are 0 here); absent otherwise", async () => {
    const u = await createUser(t, { username: 'stats' });
    const p = await createProject(t, {
      namespace: { id: u.namespaceId },
      path: 'measured',
      visibility: 'public',
      sizes: [700, 300, 200, 100],
    });
    const plain = (await api(t, u.token).get(`/api/v4/projects/${p.id}`).expect(200)).body;
    expect(plain).not.toHaveProperty('statistics');
    const one = (await api(t, u.token).get(`/api/v4/projects/${p.id}?statistics=true`).expect(200)).body;
    expect(Object.keys(one.statistics).sort()).toEqual([
      'commit_count',
      'job_artifacts_size',
      'lfs_objects_size',
      'repository_size',
      'storage_size',
    ]);
    expect(one.statistics.commit_count).toBe(0);
    expect(one.statistics.storage_size).toBe(700);
    const list = (await api(t).get('/api/v4/projects?statistics=true').expect(200)).body as {
      id: number;
      statistics: unknown;
    }[];
    expect(list.find((x) => x.id === p.id)?.statistics).toEqual(one.statistics);
    expect((await admin().get('/api/v4/projects?statistics=maybe').expect(400)).body).toEqual({
      error: 'statistics is invalid',
    });
    const gql = await api(t, u.token).graphql(`{ project(id: "${p.id}") { statistics { commitCount storageSize } } }`);
    expect(gql.body.data.project.statistics).toEqual({ commitCount: 0, storageSize: 700 });
  });

  it('with_issues_enabled and with_merge_requests_enabled keep only projects with that feature on', async () => {
    const u = await createUser(t, { username: 'features' });
    const both = (await api(t, u.token).post('/api/v4/projects').send({ name: 'both' }).expect(201)).body;
    const noIssues = (
      await api(t, u.token).post('/api/v4/projects').send({ name: 'no-issues', issues_enabled: false }).expect(201)
    ).body;
    const noMrs = (
      await api(t, u.token).post('/api/v4/projects').send({ name: 'no-mrs', merge_requests_enabled: false }).expect(201)
    ).body;
    const ids = async (q: string) =>
      (
        (await api(t, u.token).get(`/api/v4/projects?owned=true&order_by=id&sort=asc${q}`).expect(200)).body as {
          id: number;
        }[]
      ).map((x) => x.id);
    expect(await ids('')).toEqual([both.id, noIssues.id, noMrs.id]);
    expect(await ids('&with_issues_enabled=true')).toEqual([both.id, noMrs.id]);
    expect(await ids('&with_merge_requests_enabled=true')).toEqual([both.id, noIssues.id]);
    expect(await ids('&with_issues_enabled=true&with_merge_requests_enabled=true')).toEqual([both.id]);
    expect(await ids('&with_issues_enabled=false')).toEqual([both.id, noIssues.id, noMrs.id]);
    const gql = await api(t, u.token).graphql('{ projects(owned: true, withIssuesEnabled: true) { count } }');
    expect(gql.body.data.projects.count).toBe(2);
  });
});

describe('GitLab 10.3 write rules of projects', () => {
  it('PUT /projects/:id needs at least one known attribute (public_builds counts, as its 10.3 name); DELETE answers 202 Accepted', async () => {
    const u = await createUser(t, { username: 'rules' });
    const p = (await api(t, u.token).post('/api/v4/projects').send({ name: 'ruled' }).expect(201)).body;
    const none = await api(t, u.token).put(`/api/v4/projects/${p.id}`).send({ unknown: 1 }).expect(400);
    // GitLab's update_params_at_least_one_of, derived from the writable attributes (their declaration
    // order; 10.3 lists the same names in its own order, docs/gitlab-compatibility.md "Parameter errors").
    expect(none.body.error).toBe(
      'name, path, description, visibility, default_branch, shared_runners_enabled, issues_enabled, merge_requests_enabled, ' +
        'wiki_enabled, jobs_enabled, snippets_enabled, container_registry_enabled, public_jobs, public_builds, request_access_enabled, ' +
        'tag_list, ci_config_path, resolve_outdated_diff_discussions, lfs_enabled, only_allow_merge_if_pipeline_succeeds, ' +
        'only_allow_merge_if_all_discussions_are_resolved, printing_merge_request_link_enabled, avatar are missing, at least one parameter must be provided',
    );
    await api(t, u.token).put(`/api/v4/projects/${p.id}`).send({ public_builds: false }).expect(200);
    await api(t, u.token).put(`/api/v4/projects/${p.id}`).send({ public_jobs: true }).expect(200);
    await api(t, u.token).put(`/api/v4/projects/${p.id}`).send({ description: 'ok' }).expect(200);
    const del = await api(t, u.token).delete(`/api/v4/projects/${p.id}`);
    expect([del.status, del.body]).toEqual([202, { message: '202 Accepted' }]);
    expect((await api(t, u.token).get(`/api/v4/projects/${p.id}`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});
