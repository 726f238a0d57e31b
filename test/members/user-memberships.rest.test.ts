import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /users/:user_id/memberships (later GitLab; docs/rest.md#memberships). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe('GET /users/:user_id/memberships', () => {
  it("lists a user's direct group and project memberships, oldest first; type filters; administrators only", async () => {
    const u = await createUser(t);
    const g = await createGroup(t, { name: 'Platform' });
    const p = await createProject(t, { namespace: g, name: 'Tool' });
    const other = await createProject(t, { namespace: await createGroup(t), name: 'Other' });
    await addGroupMember(t, g, u, 30);
    await addProjectMember(t, p, u, 40);
    await addProjectMember(t, other, u, 10);

    const all = await admin().get(`/api/v4/users/${u.id}/memberships`).expect(200);
    expect(all.body).toEqual([
      { source_id: g.id, source_name: 'Platform', source_type: 'Namespace', access_level: 30 },
      { source_id: p.id, source_name: 'Tool', source_type: 'Project', access_level: 40 },
      { source_id: other.id, source_name: 'Other', source_type: 'Project', access_level: 10 },
    ]);
    expect(all.headers['x-total']).toBe('3');
    const projects = await admin().get(`/api/v4/users/${u.id}/memberships?type=Project&per_page=1&page=2`).expect(200);
    expect(projects.body.map((m: { source_name: string }) => m.source_name)).toEqual(['Other']);
    expect(projects.headers['x-total']).toBe('2');
    expect((await admin().get(`/api/v4/users/${u.id}/memberships?type=Namespace`).expect(200)).body).toHaveLength(1);
    expect((await admin().get(`/api/v4/users/${u.id}/memberships?type=Group`).expect(400)).body).toEqual({
      error: 'type does not have a valid value',
    });
    expect((await api(t, u.token).get(`/api/v4/users/${u.id}/memberships`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().get('/api/v4/users/4242/memberships').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
  });
});
