import { createGroup, createProject, createUser } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

const RUNNER_KEYS = ['active', 'description', 'id', 'is_shared', 'name'];
const ONLY_ONE = '403 Forbidden - Only one project associated with the runner. Please remove the runner instead';
const ids = (r: { body: { id: number }[] }) => r.body.map((x) => x.id);

describe('GET /projects/:id/runners', () => {
  it('lists the project runners plus shared runners when the project uses shared runners', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}/runners`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([w.specific.id, w.shared.id, w.multi.id]);
    expect(keys(res.body[0])).toEqual(RUNNER_KEYS);
    expect(res.headers['x-total']).toBe('3');
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}/runners?scope=shared`))).toEqual([
      w.shared.id,
    ]);
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}/runners?scope=specific`))).toEqual([
      w.specific.id,
      w.multi.id,
    ]);
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/ci-group%2Fother/runners`))).toEqual([
      w.shared.id,
      w.multi.id,
    ]);
    // spec 4.7: shared runners only while shared_runners_enabled.
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${w.project.id}`).send({ shared_runners_enabled: false });
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}/runners`))).toEqual([
      w.specific.id,
      w.multi.id,
    ]);
  });

  it('runs the Master filter first: 404 invisible project, 403 below Master, then 400 for the scope', async () => {
    const w = await runnerWorld(t);
    expect((await api(t, w.stranger.token).get(`/api/v4/projects/${w.project.id}/runners?scope=bad`)).body).toEqual({
      message: '404 Project Not Found',
    });
    expect((await api(t, w.developer.token).get(`/api/v4/projects/${w.project.id}/runners?scope=bad`)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t, w.master.token).get(`/api/v4/projects/${w.project.id}/runners?scope=bad`)).body).toEqual({
      error: 'scope does not have a valid value',
    });
    const pub = await createProject(t, {
      namespace: await createGroup(t, { visibility: 'public' }),
      visibility: 'public',
    });
    expect((await api(t, w.stranger.token).get(`/api/v4/projects/${pub.id}/runners`)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t).get(`/api/v4/projects/${pub.id}/runners`)).status).toBe(401);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${w.project.id}/runners`)).status).toBe(200);
  });
});

describe('POST /projects/:id/runners', () => {
  it('enables an owned specific runner (201 summary), then 409 when already enabled', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.master.token)
      .post(`/api/v4/projects/${w.other.id}/runners`)
      .send({ runner_id: w.specific.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: w.specific.id,
      description: 'specific',
      active: true,
      is_shared: false,
      name: null,
    });
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/${w.other.id}/runners?scope=specific`))).toEqual([
      w.specific.id,
      w.multi.id,
    ]);
    const again = await api(t, w.master.token)
      .post(`/api/v4/projects/${w.other.id}/runners`)
      .type('form')
      .send(`runner_id=${w.specific.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Runner was already enabled for this project' });
  });

  it('refuses shared and locked runners (admins too), foreign runners, unknown ids and a missing runner_id', async () => {
    const w = await runnerWorld(t);
    const locked = await createRunner(t, { locked: true, projects: [w.project] });
    const foreign = await createRunner(t, { projects: [await createProject(t, { namespace: await createGroup(t) })] });
    const post = (token: string, body: object) =>
      api(t, token).post(`/api/v4/projects/${w.other.id}/runners`).send(body);
    expect((await post(ROOT_TOKEN, { runner_id: w.shared.id })).body).toEqual({
      message: '403 Forbidden - Runner is shared',
    });
    expect((await post(ROOT_TOKEN, { runner_id: locked.id })).body).toEqual({
      message: '403 Forbidden - Runner is locked',
    });
    expect((await post(w.master.token, { runner_id: locked.id })).body).toEqual({
      message: '403 Forbidden - Runner is locked',
    });
    expect((await post(w.master.token, { runner_id: foreign.id })).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
    expect((await post(ROOT_TOKEN, { runner_id: foreign.id })).status).toBe(201);
    expect((await post(w.master.token, { runner_id: 99999 })).body).toEqual({ message: '404 Not found' });
    expect((await post(w.master.token, {})).body).toEqual({ error: 'runner_id is missing' });
    expect((await api(t, w.developer.token).post(`/api/v4/projects/${w.project.id}/runners`).send({})).body).toEqual({
      message: '403 Forbidden',
    });
    expect(
      (await api(t).post(`/api/v4/projects/${w.other.id}/runners`).send({ runner_id: w.specific.id })).status,
    ).toBe(401);
  });
});

describe('DELETE /projects/:id/runners/:runner_id', () => {
  it('disables a runner enabled in several projects (204)', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.master.token).delete(`/api/v4/projects/${w.other.id}/runners/${w.multi.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(ids(await api(t, w.master.token).get(`/api/v4/projects/${w.other.id}/runners?scope=specific`))).toEqual([]);
  });

  it('refuses the only project (403 verbatim), unlinked runners (404 Runner Not Found), non-Masters', async () => {
    const w = await runnerWorld(t);
    expect(
      (await api(t, w.master.token).delete(`/api/v4/projects/${w.project.id}/runners/${w.specific.id}`)).body,
    ).toEqual({ message: ONLY_ONE });
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/projects/${w.project.id}/runners/${w.specific.id}`)).body).toEqual(
      { message: ONLY_ONE },
    );
    expect(
      (await api(t, w.master.token).delete(`/api/v4/projects/${w.other.id}/runners/${w.specific.id}`)).body,
    ).toEqual({ message: '404 Runner Not Found' });
    expect((await api(t, w.master.token).delete(`/api/v4/projects/${w.project.id}/runners/99999`)).body).toEqual({
      message: '404 Runner Not Found',
    });
    expect(
      (await api(t, w.developer.token).delete(`/api/v4/projects/${w.project.id}/runners/${w.multi.id}`)).body,
    ).toEqual({ message: '403 Forbidden' });
    const outsider = await createUser(t);
    expect(
      (await api(t, outsider.token).delete(`/api/v4/projects/${w.project.id}/runners/${w.multi.id}`)).body,
    ).toEqual({ message: '404 Project Not Found' });
    expect((await api(t).delete(`/api/v4/projects/${w.project.id}/runners/${w.multi.id}`)).status).toBe(401);
  });
});
