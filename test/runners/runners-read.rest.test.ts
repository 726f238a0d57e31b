import { createUser } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

const RUNNER_KEYS = ['active', 'description', 'id', 'is_shared', 'name'];
const RUNNER_DETAIL_KEYS = [
  'access_level',
  'active',
  'architecture',
  'contacted_at',
  'description',
  'id',
  'is_shared',
  'locked',
  'name',
  'platform',
  'projects',
  'revision',
  'run_untagged',
  'tag_list',
  'token',
  'version',
].sort();
const BASIC_PROJECT_KEYS = [
  'avatar_url',
  'created_at',
  'default_branch',
  'description',
  'forks_count',
  'http_url_to_repo',
  'id',
  'last_activity_at',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'ssh_url_to_repo',
  'star_count',
  'tag_list',
  'web_url',
].sort();
const JOB_KEYS = [
  'commit',
  'coverage',
  'created_at',
  'duration',
  'finished_at',
  'id',
  'name',
  'pipeline',
  'project',
  'ref',
  'stage',
  'started_at',
  'status',
  'tag',
  'user',
].sort();
const COMMIT_KEYS = [
  'author_email',
  'author_name',
  'authored_date',
  'committed_date',
  'committer_email',
  'committer_name',
  'created_at',
  'id',
  'message',
  'parent_ids',
  'short_id',
  'title',
].sort();
const USER_KEYS = [
  'avatar_url',
  'bio',
  'created_at',
  'id',
  'linkedin',
  'location',
  'name',
  'organization',
  'skype',
  'state',
  'twitter',
  'username',
  'web_url',
  'website_url',
].sort();
const PROJECT_IDENTITY_KEYS = [
  'created_at',
  'description',
  'id',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
].sort();
const ids = (r: { body: { id: number }[] }) => r.body.map((x) => x.id);

describe('GET /runners', () => {
  it('lists the specific runners the caller owns (Master through group or project), never shared ones', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.master.token).get('/api/v4/runners');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(ids(res)).toEqual([w.specific.id, w.multi.id]);
    expect(keys(res.body[0])).toEqual(RUNNER_KEYS);
    expect(res.body[0]).toEqual({
      id: w.specific.id,
      description: 'specific',
      active: true,
      is_shared: false,
      name: null,
    });
    expect(res.headers['x-total']).toBe('2');
    expect(ids(await api(t, w.projectMaster.token).get('/api/v4/runners'))).toEqual([w.specific.id, w.multi.id]);
    expect(ids(await api(t, w.developer.token).get('/api/v4/runners'))).toEqual([]);
    expect(ids(await api(t, w.stranger.token).get('/api/v4/runners'))).toEqual([]);
    // Admin status does not widen the set.
    expect(ids(await api(t, ROOT_TOKEN).get('/api/v4/runners'))).toEqual([]);
  });

  it('filters by scope active|paused|online and refuses specific/shared with 400', async () => {
    const w = await runnerWorld(t);
    const paused = await createRunner(t, { active: false, projects: [w.project] });
    const online = await createRunner(t, { contactedAt: new Date(Date.now() - 10 * 60 * 1000), projects: [w.project] });
    await createRunner(t, { contactedAt: new Date(Date.now() - 2 * 60 * 60 * 1000), projects: [w.project] });
    const as = api(t, w.master.token);
    expect(ids(await as.get('/api/v4/runners?scope=paused'))).toEqual([paused.id]);
    expect(ids(await as.get('/api/v4/runners?scope=online'))).toEqual([online.id]);
    expect((await as.get('/api/v4/runners?scope=active')).body).toHaveLength(4);
    for (const bad of ['specific', 'shared', 'nope']) {
      const res = await as.get(`/api/v4/runners?scope=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'scope does not have a valid value' });
    }
  });

  it('paginates (per_page, headers) and answers 401 anonymously', async () => {
    const w = await runnerWorld(t);
    const page = await api(t, w.master.token).get('/api/v4/runners?per_page=1&page=2');
    expect(ids(page)).toEqual([w.multi.id]);
    expect(page.headers).toMatchObject({
      'x-total': '2',
      'x-total-pages': '2',
      'x-per-page': '1',
      'x-page': '2',
      'x-prev-page': '1',
      'x-next-page': '',
    });
    expect((await api(t).get('/api/v4/runners')).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('GET /runners/all', () => {
  it('lists every runner for admins, with scopes', async () => {
    const w = await runnerWorld(t);
    const paused = await createRunner(t, { active: false });
    const as = api(t, ROOT_TOKEN);
    expect(ids(await as.get('/api/v4/runners/all'))).toEqual([w.specific.id, w.shared.id, w.multi.id, paused.id]);
    expect(ids(await as.get('/api/v4/runners/all?scope=shared'))).toEqual([w.shared.id]);
    expect(ids(await as.get('/api/v4/runners/all?scope=specific'))).toEqual([w.specific.id, w.multi.id, paused.id]);
    expect(ids(await as.get('/api/v4/runners/all?scope=paused'))).toEqual([paused.id]);
    expect(ids(await as.get('/api/v4/runners/all?scope=online'))).toEqual([]);
    expect((await as.get('/api/v4/runners/all?scope=x')).body).toEqual({ error: 'scope does not have a valid value' });
  });

  it('refuses non-admins with 403 (after parameter validation) and anonymous callers with 401', async () => {
    const u = await createUser(t);
    expect((await api(t, u.token).get('/api/v4/runners/all')).body).toEqual({ message: '403 Forbidden' });
    expect((await api(t, u.token).get('/api/v4/runners/all?scope=x')).status).toBe(400);
    expect((await api(t).get('/api/v4/runners/all')).status).toBe(401);
  });
});

describe('GET /runners/:id', () => {
  it('shows the detail form to the owner, with the token and the projects they can access', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.projectMaster.token).get(`/api/v4/runners/${w.multi.id}`);
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(RUNNER_DETAIL_KEYS);
    expect(res.body).toMatchObject({
      id: w.multi.id,
      description: 'multi',
      active: true,
      is_shared: false,
      name: null,
      tag_list: [],
      run_untagged: true,
      locked: false,
      access_level: 'not_protected',
      version: null,
      revision: null,
      platform: null,
      architecture: null,
      contacted_at: null,
      token: w.multi.token,
    });
    // pmaster is a member of `project` only; the group Master and admins see both projects.
    expect(res.body.projects.map((p: { id: number }) => p.id)).toEqual([w.project.id]);
    expect(keys(res.body.projects[0])).toEqual(BASIC_PROJECT_KEYS);
    expect(res.body.projects[0]).toMatchObject({
      name: 'App',
      path: 'app',
      path_with_namespace: 'ci-group/app',
      name_with_namespace: 'CI Group / App',
    });
    const admin = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.multi.id}`);
    expect(admin.body.projects.map((p: { id: number }) => p.id)).toEqual([w.project.id, w.other.id]);
  });

  it('lets anyone read a shared runner, without its token unless admin', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.stranger.token).get(`/api/v4/runners/${w.shared.id}`);
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(RUNNER_DETAIL_KEYS.filter((k) => k !== 'token'));
    expect(res.body).toMatchObject({ is_shared: true, projects: [] });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.shared.id}`)).body.token).toBe(w.shared.token);
  });

  it('answers 403 No access granted, 404 Not found, 400 id is invalid and 401', async () => {
    const w = await runnerWorld(t);
    for (const u of [w.developer, w.stranger]) {
      expect((await api(t, u.token).get(`/api/v4/runners/${w.specific.id}`)).body).toEqual({
        message: '403 Forbidden - No access granted',
      });
    }
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/99999')).body).toEqual({ message: '404 Not found' });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/99999999999')).status).toBe(404);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/abc')).body).toEqual({ error: 'id is invalid' });
    expect((await api(t).get(`/api/v4/runners/${w.shared.id}`)).status).toBe(401);
  });
});

describe('GET /runners/:id/jobs', () => {
  it('lists jobs by id with user, commit, pipeline and project', async () => {
    const w = await runnerWorld(t);
    const at = new Date('2026-03-04T05:06:07.000Z');
    const j1 = await createJob(t, {
      runner: w.specific,
      project: w.project,
      user: w.master,
      status: 'success',
      at,
      coverage: 87.5,
    });
    const j2 = await createJob(t, {
      runner: w.specific,
      project: w.project,
      user: null,
      status: 'running',
      withCommit: false,
    });
    await createJob(t, { runner: w.multi, project: w.project, status: 'failed' });
    const res = await api(t, w.master.token).get(`/api/v4/runners/${w.specific.id}/jobs`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([j1.id, j2.id]);
    expect(res.headers['x-total']).toBe('2');
    const job = res.body[0];
    expect(keys(job)).toEqual(JOB_KEYS);
    expect(job).toMatchObject({
      id: j1.id,
      status: 'success',
      stage: 'test',
      ref: 'main',
      tag: false,
      coverage: 87.5,
      created_at: '2026-03-04T05:06:07.000Z',
      started_at: '2026-03-04T05:06:08.000Z',
      finished_at: '2026-03-04T05:07:08.500Z',
      duration: 60.5,
      pipeline: { id: j1.pipelineId, sha: j1.sha, ref: 'main', status: 'success' },
    });
    expect(keys(job.user)).toEqual(USER_KEYS);
    expect(job.user).toMatchObject({ id: w.master.id, username: 'master', web_url: 'http://gitlab.test/master' });
    expect(keys(job.commit)).toEqual(COMMIT_KEYS);
    expect(job.commit).toMatchObject({
      id: j1.sha,
      short_id: j1.sha.slice(0, 8),
      author_name: 'Ann Author',
      committed_date: '2026-03-04T05:06:07.000Z',
      parent_ids: ['a'.repeat(40)],
    });
    expect(keys(job.project)).toEqual(PROJECT_IDENTITY_KEYS);
    expect(job.project).toMatchObject({ id: w.project.id, path_with_namespace: 'ci-group/app' });
    expect(res.body[1]).toMatchObject({ id: j2.id, status: 'running', user: null, commit: null, finished_at: null });
  });

  it('filters by every job status and refuses others', async () => {
    const w = await runnerWorld(t);
    const made: Record<string, number> = {};
    for (const s of ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual']) {
      made[s] = (await createJob(t, { runner: w.specific, project: w.project, status: s })).id;
    }
    for (const s of Object.keys(made))
      expect(ids(await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs?status=${s}`))).toEqual([made[s]]);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs?status=done`)).body).toEqual({
      error: 'status does not have a valid value',
    });
    const page = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs?per_page=3&page=2`);
    expect(ids(page)).toEqual([made.success, made.failed, made.canceled]);
  });

  it('answers 403 for shared or foreign runners of non-admins, 404 and 401', async () => {
    const w = await runnerWorld(t);
    expect((await api(t, w.master.token).get(`/api/v4/runners/${w.shared.id}/jobs`)).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
    expect((await api(t, w.developer.token).get(`/api/v4/runners/${w.specific.id}/jobs`)).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.shared.id}/jobs`)).status).toBe(200);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/4242/jobs')).body).toEqual({ message: '404 Not found' });
    expect((await api(t).get(`/api/v4/runners/${w.specific.id}/jobs`)).status).toBe(401);
  });

  it('sends the same number of SQL statements for 1 job and for 20 jobs', async () => {
    const w = await runnerWorld(t);
    const users = [w.master, w.developer, w.stranger];
    await createJob(t, { runner: w.specific, project: w.project, user: w.master });
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs`));
    for (let i = 0; i < 19; i += 1)
      await createJob(t, { runner: w.specific, project: i % 2 ? w.project : w.other, user: users[i % 3] });
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs`));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});
