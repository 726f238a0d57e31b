import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /groups/:id/members/all and /projects/:id/members/all (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
type M = { username: string; access_level: number };
const levels = (body: M[]) => body.map((m) => [m.username, m.access_level]).sort();

describe('members/all', () => {
  it('lists direct and inherited members once each, at their highest level; the single entry too', async () => {
    const [a, b, c, stranger] = [
      await createUser(t, { username: 'ann' }),
      await createUser(t, { username: 'bob' }),
      await createUser(t, { username: 'cyd' }),
      await createUser(t, { username: 'dee' }),
    ];
    const top = await createGroup(t, { visibility: 'private' });
    const sub = await createGroup(t, { parent: top, visibility: 'private' });
    const project = await createProject(t, { namespace: sub, visibility: 'private' });
    await addGroupMember(t, top, a, 30);
    await addGroupMember(t, sub, a, 20);
    await addGroupMember(t, sub, b, 40);
    await addProjectMember(t, project, c, 10);
    await addProjectMember(t, project, b, 20);

    const subAll = await api(t, a.token).get(`/api/v4/groups/${sub.id}/members/all`).expect(200);
    expect(levels(subAll.body)).toEqual([
      ['ann', 30],
      ['bob', 40],
    ]);
    expect(subAll.headers['x-total']).toBe('2');
    // The direct list is unchanged: ann is a reporter of the subgroup itself.
    expect(levels((await admin().get(`/api/v4/groups/${sub.id}/members`).expect(200)).body)).toEqual([
      ['ann', 20],
      ['bob', 40],
    ]);
    const projectAll = await api(t, c.token).get(`/api/v4/projects/${project.id}/members/all`).expect(200);
    expect(levels(projectAll.body)).toEqual([
      ['ann', 30],
      ['bob', 40],
      ['cyd', 10],
    ]);
    expect(Object.keys(projectAll.body[0]).sort()).toEqual(
      Object.keys((await admin().get(`/api/v4/projects/${project.id}/members`).expect(200)).body[0]).sort(),
    );
    expect(
      (
        await admin()
          .get(`/api/v4/projects/${encodeURIComponent(project.fullPath)}/members/all?query=an`)
          .expect(200)
      ).body.map((m: M) => m.username),
    ).toEqual(['ann']);

    const one = (await admin().get(`/api/v4/projects/${project.id}/members/all/${a.id}`).expect(200)).body;
    expect([one.username, one.access_level]).toEqual(['ann', 30]);
    expect((await admin().get(`/api/v4/groups/${top.id}/members/all/${b.id}`).expect(404)).body).toEqual({
      message: '404 Member Not Found',
    });
    // A private group or project is invisible to a stranger.
    expect((await api(t, stranger.token).get(`/api/v4/groups/${sub.id}/members/all`).expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect((await api(t).get(`/api/v4/projects/${project.id}/members/all/${a.id}`).expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
    await admin().get(`/api/v4/groups/${sub.id}/members/all/abc`).expect(400);
  });
});
