import { createGroup, createProject, shareProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /groups/:id/projects/shared (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace);

describe('GET /groups/:id/projects/shared', () => {
  it('lists only the projects shared with the group that the caller may see, with the projects filters', async () => {
    const team = await createGroup(t, { path: 'team', visibility: 'public' });
    await createProject(t, { namespace: team, path: 'own', visibility: 'public' });
    const other = await createGroup(t, { path: 'other', visibility: 'public' });
    const open = await createProject(t, { namespace: other, path: 'open', visibility: 'public' });
    const closed = await createProject(t, { namespace: other, path: 'closed', visibility: 'private' });
    await createProject(t, { namespace: other, path: 'unshared', visibility: 'public' });
    await shareProject(t, open, team, 30);
    await shareProject(t, closed, team, 30);

    expect(paths((await api(t).get(`/api/v4/groups/${team.id}/projects/shared`).expect(200)).body)).toEqual([
      'other/open',
    ]);
    const admin = await api(t, ROOT_TOKEN)
      .get('/api/v4/groups/team/projects/shared?order_by=path&sort=asc')
      .expect(200);
    expect(paths(admin.body)).toEqual(['other/closed', 'other/open']);
    expect(admin.headers['x-total']).toBe('2');
    expect(
      paths(
        (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${team.id}/projects/shared?search=clo&simple=true`).expect(200))
          .body,
      ),
    ).toEqual(['other/closed']);
    // The group's own projects are not shared projects.
    expect(paths((await api(t).get(`/api/v4/groups/${team.id}/projects`).expect(200)).body)).toContain('team/own');
    expect((await api(t).get('/api/v4/groups/424242/projects/shared').expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});
