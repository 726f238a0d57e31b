import { addGroupMember, createGroup, createProject, createUser, shareProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /projects/:id/groups (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path);

describe('GET /projects/:id/groups', () => {
  it("lists the project's group and its ancestors, and with with_shared the visible share groups", async () => {
    const top = await createGroup(t, { path: 'top', name: 'Top', visibility: 'public' });
    const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: top, visibility: 'public' });
    const project = await createProject(t, { namespace: sub, path: 'app', visibility: 'public' });
    const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
    const hidden = await createGroup(t, { path: 'hidden', name: 'Hidden', visibility: 'private' });
    await shareProject(t, project, partner, 30);
    await shareProject(t, project, hidden, 20);

    const plain = await api(t).get(`/api/v4/projects/${project.id}/groups`).expect(200);
    expect(paths(plain.body)).toEqual(['top/sub', 'top']);
    expect(Object.keys(plain.body[0]).sort()).toEqual([
      'avatar_url',
      'full_name',
      'full_path',
      'id',
      'name',
      'web_url',
    ]);
    expect(plain.body[0]).toMatchObject({ id: sub.id, name: 'Sub', full_name: 'Top / Sub' });
    expect(
      paths((await api(t).get(`/api/v4/projects/top%2Fsub%2Fapp/groups?with_shared=true`).expect(200)).body),
    ).toEqual(['partner', 'top/sub', 'top']);
    const member = await createUser(t);
    await addGroupMember(t, hidden, member, 10);
    const mine = await api(t, member.token).get(`/api/v4/projects/${project.id}/groups?with_shared=true`).expect(200);
    expect(paths(mine.body)).toEqual(['hidden', 'partner', 'top/sub', 'top']);
    expect(
      paths(
        (
          await api(t, ROOT_TOKEN)
            .get(
              `/api/v4/projects/${project.id}/groups?with_shared=true&shared_min_access_level=30&skip_groups[]=${top.id}`,
            )
            .expect(200)
        ).body,
      ),
    ).toEqual(['partner', 'top/sub']);
    expect(paths((await api(t).get(`/api/v4/projects/${project.id}/groups?search=top`).expect(200)).body)).toEqual([
      'top',
    ]);
    const personal = await createUser(t);
    const own = await createProject(t, { namespace: { id: personal.namespaceId }, visibility: 'public' });
    expect((await api(t).get(`/api/v4/projects/${own.id}/groups`).expect(200)).body).toEqual([]);
    expect((await api(t).get('/api/v4/projects/424242/groups').expect(404)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});
