import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from '../runners/runner-factories';

/** GitLab 10.3's jobs API, read routes (docs/rest.md#jobs). */
const t = useTestApp();
const ids = (body: { id: number }[]) => body.map((j) => j.id);

describe('GET /projects/:id/jobs, /jobs/:job_id, /pipelines/:pipeline_id/jobs', () => {
  it('lists newest first, filters by scope, shows one job; read_build decides (403), visibility first (404)', async () => {
    const g = await createGroup(t);
    const project = await createProject(t, { namespace: g });
    const runner = await createRunner(t, { projects: [project] });
    const user = await createUser(t);
    const a = await createJob(t, { project, runner, status: 'success', user });
    const b = await createJob(t, { project, runner, status: 'failed' });
    const c = await createJob(t, { project, runner: null, status: 'pending' });

    const all = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/jobs`).expect(200);
    expect(ids(all.body)).toEqual([c.id, b.id, a.id]);
    expect(all.headers['x-total']).toBe('3');
    expect(Object.keys(all.body[2]).sort()).toEqual(
      [
        'commit',
        'coverage',
        'created_at',
        'duration',
        'finished_at',
        'id',
        'name',
        'pipeline',
        'ref',
        'runner',
        'stage',
        'started_at',
        'status',
        'tag',
        'user',
      ].sort(),
    );
    expect(all.body[2]).toMatchObject({ status: 'success', runner: { id: runner.id }, user: { id: user.id } });
    expect(all.body[0].runner).toBeNull();
    expect(
      ids((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/jobs?scope=failed`).expect(200)).body),
    ).toEqual([b.id]);
    expect(
      ids(
        (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/jobs?scope[]=failed&scope[]=success`).expect(200))
          .body,
      ),
    ).toEqual([b.id, a.id]);
    await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/jobs?scope=exploded`).expect(400);

    const one = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/jobs/${a.id}`).expect(200);
    expect(one.body).toEqual(all.body[2]);
    const other = await createProject(t, { namespace: g });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${other.id}/jobs/${a.id}`).expect(404)).body).toEqual({
      message: '404 Not found',
    });
    expect(
      ids(
        (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${project.id}/pipelines/${a.pipelineId}/jobs`).expect(200))
          .body,
      ),
    ).toEqual([a.id]);
    await api(t, ROOT_TOKEN).get(`/api/v4/projects/${other.id}/pipelines/${a.pipelineId}/jobs`).expect(404);

    const guest = await createUser(t);
    await addProjectMember(t, project, guest, 10);
    // With public jobs (GitLab's default) a guest reads them; without, Reporter and above only.
    await api(t, guest.token).get(`/api/v4/projects/${project.id}/jobs`).expect(200);
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${project.id}`).send({ public_jobs: false }).expect(200);
    expect((await api(t, guest.token).get(`/api/v4/projects/${project.id}/jobs`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    const reporter = await createUser(t);
    await addProjectMember(t, project, reporter, 20);
    await api(t, reporter.token).get(`/api/v4/projects/${project.id}/jobs`).expect(200);
    expect((await api(t).get(`/api/v4/projects/${project.id}/jobs`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});
