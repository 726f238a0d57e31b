import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /users/:user_id/starred_projects (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace);

describe('GET /users/:user_id/starred_projects', () => {
  it("lists the projects a user starred that the caller may see, with the projects list's filters", async () => {
    const [fan, viewer] = [await createUser(t), await createUser(t)];
    const g = await createGroup(t, { path: 'stars', visibility: 'public' });
    const a = await createProject(t, { namespace: g, path: 'alpha', visibility: 'public' });
    const b = await createProject(t, { namespace: g, path: 'beta', visibility: 'public' });
    const secret = await createProject(t, { namespace: g, path: 'secret', visibility: 'private' });
    await createProject(t, { namespace: g, path: 'unstarred', visibility: 'public' });
    await addProjectMember(t, secret, fan, 20);
    for (const p of [a, b, secret]) await api(t, fan.token).post(`/api/v4/projects/${p.id}/star`).expect(201);

    expect(
      paths((await api(t, viewer.token).get(`/api/v4/users/${fan.id}/starred_projects`).expect(200)).body),
    ).toEqual(['stars/beta', 'stars/alpha']);
    expect(
      paths((await api(t, fan.token).get(`/api/v4/users/${fan.username}/starred_projects`).expect(200)).body),
    ).toEqual(['stars/secret', 'stars/beta', 'stars/alpha']);
    const searched = await api(t).get(`/api/v4/users/${fan.id}/starred_projects?search=alp&simple=true`).expect(200);
    expect(paths(searched.body)).toEqual(['stars/alpha']);
    expect(searched.headers['x-total']).toBe('1');
    expect(
      paths((await api(t, ROOT_TOKEN).get(`/api/v4/users/${viewer.id}/starred_projects`).expect(200)).body),
    ).toEqual([]);
    expect((await api(t).get('/api/v4/users/4242/starred_projects').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
  });
});

describe('GET /projects/:id/starrers', () => {
  it('lists who starred a visible project, the latest first, with search; 404 for an invisible one', async () => {
    const [ann, bob] = [await createUser(t, { username: 'ann-star' }), await createUser(t, { username: 'bob-star' })];
    const g = await createGroup(t, { visibility: 'public' });
    const p = await createProject(t, { namespace: g, visibility: 'public' });
    const secret = await createProject(t, { namespace: g, visibility: 'private' });
    await api(t, ann.token).post(`/api/v4/projects/${p.id}/star`).expect(201);
    await api(t, bob.token).post(`/api/v4/projects/${p.id}/star`).expect(201);
    const all = await api(t).get(`/api/v4/projects/${p.id}/starrers`).expect(200);
    expect(all.body.map((s: { user: { username: string } }) => s.user.username)).toEqual(['bob-star', 'ann-star']);
    expect(Object.keys(all.body[0]).sort()).toEqual(['starred_since', 'user']);
    expect(all.headers['x-total']).toBe('2');
    const found = await api(t).get(`/api/v4/projects/${p.id}/starrers?search=ANN`).expect(200);
    expect(found.body.map((s: { user: { username: string } }) => s.user.username)).toEqual(['ann-star']);
    expect((await api(t).get(`/api/v4/projects/${secret.id}/starrers`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});
