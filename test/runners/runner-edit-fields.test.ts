import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createRunner } from './runner-factories';

/**
 * The fields of GitLab's runner edit form beyond 10.3's REST (runner_fields_shared.fragment.graphql; the
 * document itself runs in test/graphql/gitlab-documents.test.ts). A runner's maximum job timeout: GitLab's `CiRunner.maximumTimeout`, set by `runnerUpdate`, `runnerCreate`
 * (POST /user/runners' `maximum_timeout`) and `runnerRegister`; at least ten minutes. GitLab 10.3's REST
 * runner routes have no such attribute (spec 4.3, 4.4), so their bodies and messages stay as they were.
 */
const t = useTestApp();

const read = async (token: string, id: number) =>
  (await api(t, token).graphql(`{ runner(id: ${id}) { maximumTimeout } }`)).body.data.runner;

const update = (token: string, id: number, fields: string) =>
  api(t, token).graphql(
    `mutation { runnerUpdate(input: { id: ${id}, ${fields} }) { runner { maximumTimeout } errors } }`,
  );

describe('CiRunner.maximumTimeout', () => {
  it('is null until set; runnerUpdate stores it, other updates keep it, and the change is audited', async () => {
    const runner = await createRunner(t, { shared: true });
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: null });

    const set = await update(ROOT_TOKEN, runner.id, 'maximumTimeout: 3600');
    expect(set.body).toEqual({ data: { runnerUpdate: { runner: { maximumTimeout: 3600 }, errors: [] } } });
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: 3600 });
    const audit = (await api(t, ROOT_TOKEN).get('/api/v4/audit_events').expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    expect(audit[0].details).toMatchObject({ change: 'maximum_timeout', from: '', to: '3600' });

    // Another attribute's change keeps the timeout; null means "unchanged", as for every optional input here.
    await update(ROOT_TOKEN, runner.id, 'description: "kept"').expect(200);
    await update(ROOT_TOKEN, runner.id, 'description: "again", maximumTimeout: null').expect(200);
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: 3600 });
  });

  it('refuses less than ten minutes as GitLab does, and keeps the stored value', async () => {
    const runner = await createRunner(t, { shared: true });
    await update(ROOT_TOKEN, runner.id, 'maximumTimeout: 1200').expect(200);
    for (const value of [599, 0, -1]) {
      const res = await update(ROOT_TOKEN, runner.id, `maximumTimeout: ${value}`);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.runnerUpdate).toEqual({
        runner: null,
        errors: ['Maximum timeout needs to be at least 10 minutes'],
      });
    }
    const big = await update(ROOT_TOKEN, runner.id, 'maximumTimeout: 2147483648');
    expect(big.body.errors?.[0]?.message).toMatch(/Int cannot represent non 32-bit signed integer value/);
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: 1200 });
  });

  it("follows the runner's rules: its project's Master sets it; a stranger reads null and cannot change it", async () => {
    const project = await createProject(t, { namespace: await createGroup(t) });
    const master = await createUser(t);
    const stranger = await createUser(t);
    await addProjectMember(t, project, master, 40);
    const runner = await createRunner(t, { projects: [project] });
    const mine = await update(master.token, runner.id, 'maximumTimeout: 900');
    expect(mine.body.data.runnerUpdate).toEqual({ runner: { maximumTimeout: 900 }, errors: [] });
    expect(await read(stranger.token, runner.id)).toBeNull();
    const theirs = await update(stranger.token, runner.id, 'maximumTimeout: 7200');
    expect(theirs.body.data?.runnerUpdate ?? null).toBeNull();
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: 900 });
  });

  it('POST /user/runners and runnerCreate store maximum_timeout; under ten minutes is a 400 with nothing created', async () => {
    const rest = await api(t, ROOT_TOKEN)
      .post('/api/v4/user/runners')
      .send({ runner_type: 'instance_type', description: 'timed', maximum_timeout: 1800 })
      .expect(201);
    expect(await read(ROOT_TOKEN, rest.body.id)).toEqual({ maximumTimeout: 1800 });

    const gql = await api(t, ROOT_TOKEN).graphql(
      'mutation { runnerCreate(input: { runnerType: INSTANCE_TYPE, maximumTimeout: 7200 }) { runner { databaseId } errors } }',
    );
    expect(gql.body.data.runnerCreate.errors).toEqual([]);
    expect(await read(ROOT_TOKEN, gql.body.data.runnerCreate.runner.databaseId)).toEqual({ maximumTimeout: 7200 });

    const before = (await api(t, ROOT_TOKEN).get('/api/v4/runners/all').expect(200)).headers['x-total'];
    const short = await api(t, ROOT_TOKEN)
      .post('/api/v4/user/runners')
      .send({ runner_type: 'instance_type', maximum_timeout: 60 })
      .expect(400);
    expect(short.body).toEqual({ message: '400 Bad request - Maximum timeout needs to be at least 10 minutes' });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/all').expect(200)).headers['x-total']).toBe(before);
  });

  it("leaves GitLab 10.3's REST runner routes as they were: no maximum_timeout key, parameter or rule", async () => {
    const runner = await createRunner(t, { shared: true });
    await update(ROOT_TOKEN, runner.id, 'maximumTimeout: 3600').expect(200);
    const detail = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}`).expect(200)).body;
    expect(detail).not.toHaveProperty('maximum_timeout');
    const only = await api(t, ROOT_TOKEN).put(`/api/v4/runners/${runner.id}`).send({ maximum_timeout: 60 }).expect(400);
    expect(only.body.error).toBe(
      'description, active, tag_list, run_untagged, locked, access_level are missing, at least one parameter must be provided',
    );
    expect(await read(ROOT_TOKEN, runner.id)).toEqual({ maximumTimeout: 3600 });
  });

  it('createdBy: the user who created it with POST /user/runners or runnerCreate; null when registered with a token or once that user is deleted', async () => {
    const project = await createProject(t, { namespace: await createGroup(t) });
    const master = await createUser(t);
    await addProjectMember(t, project, master, 40);
    const made = await api(t, master.token)
      .post('/api/v4/user/runners')
      .send({ runner_type: 'project_type', project_id: project.id })
      .expect(201);
    const registered = await createRunner(t, { projects: [project] });
    const q = (id: number) => `{ runner(id: ${id}) { createdBy { username } createdAt } }`;
    const mine = (await api(t, master.token).graphql(q(made.body.id))).body.data.runner;
    expect(mine.createdBy).toEqual({ username: master.username });
    expect(Date.parse(mine.createdAt)).not.toBeNaN();
    expect((await api(t, ROOT_TOKEN).graphql(q(registered.id))).body.data.runner.createdBy).toBeNull();

    await api(t, ROOT_TOKEN).delete(`/api/v4/users/${master.id}`).expect(204);
    const gone = (await api(t, ROOT_TOKEN).graphql(q(made.body.id))).body;
    expect(gone.errors).toBeUndefined();
    expect(gone.data.runner).toEqual({ createdBy: null, createdAt: mine.createdAt });
  });
});
