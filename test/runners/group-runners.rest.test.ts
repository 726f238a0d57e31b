import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createRunner } from './runner-factories';

const t = useTestApp();

const RUNNER_KEYS = ['active', 'description', 'id', 'is_shared', 'name'];
const ids = (body: { id: number }[]) => body.map((r) => r.id);

describe('GET /groups/:id/runners', () => {
  it("lists the runners available to the group (the shared ones here), with GitLab's filters", async () => {
    const ann = await createUser(t);
    const g = await createGroup(t, { path: 'g' });
    await addGroupMember(t, g, ann, 40);
    const p = await createProject(t, { namespace: g });
    const online = await createRunner(t, { shared: true, contactedAt: new Date(), tagList: ['docker', 'linux'] });
    const paused = await createRunner(t, { shared: true, active: false, tagList: ['docker'] });
    await createRunner(t, { projects: [p] }); // a project runner: not the group's
    const get = (q = '') => api(t, ann.token).get(`/api/v4/groups/${g.id}/runners${q}`);

    const all = await get();
    expect(all.status).toBe(200);
    expect(keys(all.body[0])).toEqual(RUNNER_KEYS);
    expect(ids(all.body)).toEqual([online.id, paused.id]);
    expect(all.headers['x-total']).toBe('2');
    expect(ids((await get('?paused=true')).body)).toEqual([paused.id]);
    expect(ids((await get('?paused=false')).body)).toEqual([online.id]);
    expect(ids((await get('?status=online')).body)).toEqual([online.id]);
    expect(ids((await get('?tag_list=docker,linux')).body)).toEqual([online.id]);
    expect(ids((await get('?type=instance_type')).body)).toEqual([online.id, paused.id]);
    expect((await get('?type=group_type')).body).toEqual([]);
    expect(ids((await get('?scope=active')).body)).toEqual([online.id]);
    expect((await get('?type=nope')).body).toEqual({ error: 'type does not have a valid value' });
    expect((await get('?scope=nope')).body).toEqual({ error: 'scope does not have a valid value' });
  });

  it('answers 401, 404 for a group the caller may not see, 403 below Master', async () => {
    const dev = await createUser(t);
    const g = await createGroup(t, { path: 'g', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret' });
    await addGroupMember(t, g, dev, 30);
    expect((await api(t).get(`/api/v4/groups/${g.id}/runners`)).status).toBe(401);
    const below = await api(t, dev.token).get(`/api/v4/groups/${g.id}/runners`);
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api(t, dev.token).get(`/api/v4/groups/${secret.id}/runners`)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${secret.id}/runners`)).status).toBe(200);
  });

  it('costs the same number of SQL statements for 1 runner and for 20 (no N+1)', async () => {
    const g = await createGroup(t, { path: 'g' });
    await createRunner(t, { shared: true });
    const url = `/api/v4/groups/${g.id}/runners?per_page=20`;
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(url));
    expect(one.result.body).toHaveLength(1);
    for (let i = 0; i < 19; i += 1) await createRunner(t, { shared: true });
    const many = await t.countQueries(() => api(t, ROOT_TOKEN).get(url));
    expect(many.result.body).toHaveLength(20);
    expect(many.count).toBe(one.count);
  });
});
