import { queryOne } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

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
const AT_LEAST_ONE =
  'description, active, tag_list, run_untagged, locked, access_level are missing, at least one parameter must be provided';

describe('PUT /runners/:id', () => {
  it('updates the given attributes for the owner and returns the detail form', async () => {
    const w = await runnerWorld(t);
    const res = await api(t, w.master.token)
      .put(`/api/v4/runners/${w.specific.id}`)
      .type('form')
      .send('description=Build box&active=false&tag_list=ruby, mysql,ruby&locked=true&access_level=ref_protected');
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(RUNNER_DETAIL_KEYS);
    expect(res.body).toMatchObject({
      description: 'Build box',
      active: false,
      tag_list: ['ruby', 'mysql'],
      locked: true,
      access_level: 'ref_protected',
      run_untagged: true,
    });
    const again = await api(t, w.master.token).get(`/api/v4/runners/${w.specific.id}`);
    expect(again.body).toMatchObject({
      description: 'Build box',
      active: false,
      tag_list: ['ruby', 'mysql'],
      locked: true,
      access_level: 'ref_protected',
    });
  });

  it('replaces tag_list from an array (form and JSON) and applies the tags-or-run_untagged rule', async () => {
    const w = await runnerWorld(t);
    const as = api(t, ROOT_TOKEN);
    expect(
      (await as.put(`/api/v4/runners/${w.specific.id}`).type('form').send('tag_list[]=a&tag_list[]=b')).body.tag_list,
    ).toEqual(['a', 'b']);
    expect((await as.put(`/api/v4/runners/${w.specific.id}`).send({ tag_list: ['c'] })).body.tag_list).toEqual(['c']);
    const bad = await as.put(`/api/v4/runners/${w.specific.id}`).send({ tag_list: [], run_untagged: false });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] },
    });
    expect(
      (
        await queryOne<{ run_untagged: boolean }>(t, 'select run_untagged from ci_runners where id = ?', [
          w.specific.id,
        ])
      )?.run_untagged,
    ).toBe(true);
    expect((await as.put(`/api/v4/runners/${w.specific.id}`).send({ run_untagged: false })).body).toMatchObject({
      run_untagged: false,
      tag_list: ['c'],
    });
  });

  it('validates parameters: at least one, access_level values, booleans', async () => {
    const w = await runnerWorld(t);
    const as = api(t, ROOT_TOKEN);
    expect((await as.put(`/api/v4/runners/${w.specific.id}`).send({})).body).toEqual({ error: AT_LEAST_ONE });
    expect((await as.put(`/api/v4/runners/${w.specific.id}`).send({ access_level: 'x' })).body).toEqual({
      error: 'access_level does not have a valid value',
    });
    expect((await as.put(`/api/v4/runners/${w.specific.id}`).send({ active: 'maybe' })).body).toEqual({
      error: 'active is invalid',
    });
    expect((await as.put('/api/v4/runners/9999').send({ active: true })).body).toEqual({ message: '404 Not found' });
    const long = await as
      .put(`/api/v4/runners/${w.specific.id}`)
      .send({ description: 'x'.repeat(256), run_untagged: false });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      message: {
        description: ['is too long (maximum is 255 characters)'],
        tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
      },
    });
  });

  it('applies the permission matrix: admin any, owner own specific, 403 with the reference reasons, 401', async () => {
    const w = await runnerWorld(t);
    expect((await api(t, ROOT_TOKEN).put(`/api/v4/runners/${w.shared.id}`).send({ description: 'x' })).status).toBe(
      200,
    );
    expect(
      (await api(t, w.master.token).put(`/api/v4/runners/${w.shared.id}`).send({ description: 'x' })).body,
    ).toEqual({ message: '403 Forbidden - Runner is shared' });
    expect(
      (await api(t, w.developer.token).put(`/api/v4/runners/${w.specific.id}`).send({ description: 'x' })).body,
    ).toEqual({ message: '403 Forbidden - No access granted' });
    expect(
      (await api(t, w.stranger.token).put(`/api/v4/runners/${w.specific.id}`).send({ description: 'x' })).body,
    ).toEqual({ message: '403 Forbidden - No access granted' });
    expect(
      (await api(t, w.projectMaster.token).put(`/api/v4/runners/${w.multi.id}`).send({ description: 'x' })).status,
    ).toBe(200);
    expect((await api(t).put(`/api/v4/runners/${w.specific.id}`).send({ description: 'x' })).status).toBe(401);
  });
});

describe('DELETE /runners/:id', () => {
  it('removes an owned single-project runner (204) with its links; its jobs stay without runner', async () => {
    const w = await runnerWorld(t);
    const job = await createJob(t, { runner: w.specific, project: w.project });
    const res = await api(t, w.master.token).delete(`/api/v4/runners/${w.specific.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}`)).status).toBe(404);
    expect(await queryOne(t, 'select 1 from ci_runner_projects where runner_id = ?', [w.specific.id])).toBeUndefined();
    expect(
      (await queryOne<{ runner_id: number | null }>(t, 'select runner_id from ci_builds where id = ?', [job.id]))
        ?.runner_id,
    ).toBeNull();
  });

  it('checks non-admins in the reference order: shared, more than one project, not owned', async () => {
    const w = await runnerWorld(t);
    expect((await api(t, w.master.token).delete(`/api/v4/runners/${w.shared.id}`)).body).toEqual({
      message: '403 Forbidden - Runner is shared',
    });
    expect((await api(t, w.master.token).delete(`/api/v4/runners/${w.multi.id}`)).body).toEqual({
      message: '403 Forbidden - Runner associated with more than one project',
    });
    // A stranger also hits the project-count rule first (GitLab's order).
    expect((await api(t, w.stranger.token).delete(`/api/v4/runners/${w.multi.id}`)).body).toEqual({
      message: '403 Forbidden - Runner associated with more than one project',
    });
    expect((await api(t, w.developer.token).delete(`/api/v4/runners/${w.specific.id}`)).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
    expect((await api(t).delete(`/api/v4/runners/${w.specific.id}`)).status).toBe(401);
    expect((await api(t, ROOT_TOKEN).delete('/api/v4/runners/9999')).body).toEqual({ message: '404 Not found' });
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${w.multi.id}`)).status).toBe(204);
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/runners/${w.shared.id}`)).status).toBe(204);
  });

  it('lets an owner delete an unlinked runner? no: without projects nobody but admins owns it', async () => {
    const orphan = await createRunner(t);
    const w = await runnerWorld(t);
    expect((await api(t, w.master.token).delete(`/api/v4/runners/${orphan.id}`)).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
  });
});
