import request from 'supertest';
import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Current GitLab's POST /user/runners (lib/api/user_runners.rb; docs/client-routes.md#runners). */
const t = useTestApp();
const url = '/api/v4/user/runners';

describe('POST /user/runners', () => {
  it('an admin creates an instance runner: 201 {id, token, token_expires_at}; the token works as a runner token', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post(url)
      .send({
        runner_type: 'instance_type',
        description: 'fleet-1',
        paused: true,
        locked: true,
        run_untagged: false,
        tag_list: 'docker,linux',
        access_level: 'ref_protected',
        maximum_timeout: 3600,
        maintenance_note: 'not stored',
      })
      .expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^glrt-[0-9a-f]{30}$/);
    expect(res.body.token_expires_at).toBeNull();
    const detail = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${res.body.id}`).expect(200)).body;
    expect(detail).toMatchObject({
      description: 'fleet-1',
      is_shared: true,
      active: false,
      locked: true,
      run_untagged: false,
      tag_list: ['docker', 'linux'],
      access_level: 'ref_protected',
      projects: [],
    });
    await request(t.app).post('/api/v4/runners/verify').send({ token: res.body.token }).expect(200);
    const audit = (await api(t, ROOT_TOKEN).get('/api/v4/audit_events').expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    expect(audit[0].details).toMatchObject({ add: 'runner', target_id: String(res.body.id) });
  });

  it("a project's Maintainer creates a project runner enabled in it; a Developer 403; unknown or hidden project 400", async () => {
    const group = await createGroup(t, { visibility: 'private' });
    const project = await createProject(t, { namespace: group, visibility: 'private' });
    const maintainer = await createUser(t);
    const developer = await createUser(t);
    const stranger = await createUser(t);
    await addProjectMember(t, project, maintainer, 40);
    await addProjectMember(t, project, developer, 30);
    const res = await api(t, maintainer.token)
      .post(url)
      .send({ runner_type: 'project_type', project_id: project.id, description: 'mine' })
      .expect(201);
    const runners = (await api(t, maintainer.token).get(`/api/v4/projects/${project.id}/runners`).expect(200)).body;
    expect(runners.map((r: { id: number }) => r.id)).toContain(res.body.id);
    const detail = (await api(t, maintainer.token).get(`/api/v4/runners/${res.body.id}`).expect(200)).body;
    expect(detail).toMatchObject({ is_shared: false, active: true, run_untagged: true, locked: false });

    await api(t, developer.token)
      .post(url)
      .send({ runner_type: 'project_type', project_id: project.id })
      .expect(403, { message: '403 Forbidden - Insufficient permissions' });
    await api(t, stranger.token)
      .post(url)
      .send({ runner_type: 'project_type', project_id: project.id })
      .expect(400, { message: '400 Bad request - Missing/invalid project' });
    await api(t, maintainer.token)
      .post(url)
      .send({ runner_type: 'project_type', project_id: 987654 })
      .expect(400, { message: '400 Bad request - Missing/invalid project' });
  });

  it('non-admins cannot create instance runners; group runners are refused; bad params 400; anonymous 401', async () => {
    const u = await createUser(t);
    await api(t).post(url).send({ runner_type: 'instance_type' }).expect(401, { message: '401 Unauthorized' });
    await api(t, u.token)
      .post(url)
      .send({ runner_type: 'instance_type' })
      .expect(403, { message: '403 Forbidden - Insufficient permissions' });
    await api(t, ROOT_TOKEN).post(url).send({}).expect(400, { error: 'runner_type is missing' });
    await api(t, ROOT_TOKEN)
      .post(url)
      .send({ runner_type: 'shared' })
      .expect(400, { error: 'runner_type does not have a valid value' });
    await api(t, ROOT_TOKEN)
      .post(url)
      .send({ runner_type: 'project_type' })
      .expect(400, { error: 'project_id is missing' });
    await api(t, ROOT_TOKEN)
      .post(url)
      .send({ runner_type: 'group_type' })
      .expect(400, { error: 'group_id is missing' });
    await api(t, ROOT_TOKEN)
      .post(url)
      .send({ runner_type: 'group_type', group_id: 1 })
      .expect(400, { message: '400 Bad request - Group runners are not supported' });
    await api(t, ROOT_TOKEN)
      .post(url)
      .send({ runner_type: 'instance_type', access_level: 'everything' })
      .expect(400, { error: 'access_level does not have a valid value' });
    await api(t, ROOT_TOKEN).post(url).send({ runner_type: 'instance_type', run_untagged: false }).expect(400, {
      message: '400 Bad request - Tags list can not be empty when runner is not allowed to pick untagged jobs',
    });
    const gql = await api(t, ROOT_TOKEN)
      .post('/api/graphql')
      .send({
        query:
          'mutation { runnerCreate(input: { runnerType: INSTANCE_TYPE, description: "gql" }) { runner { databaseId token tokenExpiresAt } errors } }',
      })
      .expect(200);
    expect(gql.body.data.runnerCreate.errors).toEqual([]);
    expect(gql.body.data.runnerCreate.runner.token).toMatch(/^glrt-/);
  });
});
