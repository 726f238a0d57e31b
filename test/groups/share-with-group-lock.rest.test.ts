import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createGroup } from '../support/factories';

/** GitLab 10.3's share_with_group_lock on POST/PUT /groups, honoured by POST /projects/:id/share. */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

describe('share_with_group_lock', () => {
  it("refuses sharing the projects of a locked group and of its subgroups, 400 with GitLab's message", async () => {
    const other = await createGroup(t, { path: 'partners' });
    const locked = (
      await admin()
        .post('/api/v4/groups')
        .send({ name: 'Locked', path: 'locked', share_with_group_lock: true })
        .expect(201)
    ).body;
    // GitLab 10.3's group entity does not show the attribute.
    expect(locked).not.toHaveProperty('share_with_group_lock');
    const sub = (
      await admin().post('/api/v4/groups').send({ name: 'Sub', path: 'sub', parent_id: locked.id }).expect(201)
    ).body;
    const p1 = (await admin().post('/api/v4/projects').send({ name: 'p1', namespace_id: locked.id }).expect(201)).body;
    const p2 = (await admin().post('/api/v4/projects').send({ name: 'p2', namespace_id: sub.id }).expect(201)).body;
    for (const p of [p1, p2]) {
      expect(
        (
          await admin()
            .post(`/api/v4/projects/${p.id}/share`)
            .send({ group_id: other.id, group_access: 30 })
            .expect(400)
        ).body,
      ).toEqual({ message: 'The project sharing with group is disabled' });
    }
    const gql = await admin()
      .post('/graphql')
      .send({ query: `{ group(id: "${sub.id}") { shareWithGroupLock } }` })
      .expect(200);
    expect(gql.body.data.group).toEqual({ shareWithGroupLock: true });
  });

  it('locking an existing group locks its subtree; unlocked groups share as before', async () => {
    const other = await createGroup(t, { path: 'partners2' });
    const top = (await admin().post('/api/v4/groups').send({ name: 'Top', path: 'top' }).expect(201)).body;
    const child = (
      await admin().post('/api/v4/groups').send({ name: 'Child', path: 'child', parent_id: top.id }).expect(201)
    ).body;
    const p = (await admin().post('/api/v4/projects').send({ name: 'p', namespace_id: child.id }).expect(201)).body;
    await admin().post(`/api/v4/projects/${p.id}/share`).send({ group_id: other.id, group_access: 30 }).expect(201);
    await admin().delete(`/api/v4/projects/${p.id}/share/${other.id}`).expect(204);
    await admin().put(`/api/v4/groups/${top.id}`).send({ share_with_group_lock: true }).expect(200);
    expect(
      (await admin().post(`/api/v4/projects/${p.id}/share`).send({ group_id: other.id, group_access: 30 }).expect(400))
        .body,
    ).toEqual({ message: 'The project sharing with group is disabled' });
    const audit = (await admin().get(`/api/v4/groups/${top.id}/audit_events`).expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    expect(audit[0].details).toMatchObject({ change: 'share_with_group_lock', from: 'false', to: 'true' });
  });
});
