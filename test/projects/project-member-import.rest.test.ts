import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
} from '../support/factories';
import { captureSystemEvents } from '../support/system-events';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const members = async (projectId: number) =>
  (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${projectId}/members?per_page=100`)).body.map(
    (m: { username: string; access_level: number; expires_at: string | null }) => [
      m.username,
      m.access_level,
      m.expires_at,
    ],
  );

describe('POST /projects/:id/import_project_members/:project_id', () => {
  it("copies the source's direct members with their levels and expiry, keeping the target's own", async () => {
    const ann = await createUser(t, { username: 'ann' });
    const bob = await createUser(t, { username: 'bob' });
    const cid = await createUser(t, { username: 'cid' });
    const g = await createGroup(t, { path: 'g' });
    const source = await createProject(t, { namespace: g, path: 'source' });
    const target = await createProject(t, { namespace: g, path: 'target' });
    await addGroupMember(t, g, ann, 40); // Master of both through the group: not a direct member to copy
    await addProjectMember(t, source, bob, 30);
    await addProjectMember(t, source, cid, 40);
    await queryOne(t, "update project_members set expires_at = '2031-01-01' where user_id = ?", [bob.id]);
    await addProjectMember(t, target, cid, 10);
    const events = await captureSystemEvents(t);

    const res = await api(t, ann.token).post(`/api/v4/projects/${target.id}/import_project_members/${source.id}`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 'success' });
    expect(await members(target.id)).toEqual([
      ['cid', 10, null],
      ['bob', 30, '2031-01-01'],
    ]);
    const hooks = await events();
    expect(hooks.map((e) => [e.event_name, e.payload.user_username])).toEqual([['user_add_to_team', 'bob']]);
    const audit = await queryOne<{ details: Record<string, unknown> }>(
      t,
      "select details from audit_events where entity_type = 'Project' and entity_id = ? order by id desc limit 1",
      [target.id],
    );
    expect(audit?.details).toMatchObject({ add: 'user_access', as: 'Developer', target_details: 'bob' });
    // Again: nothing left to copy, still a success.
    const again = await api(t, ann.token).post(`/api/v4/projects/${target.id}/import_project_members/${source.id}`);
    expect([again.status, again.body]).toEqual([201, { status: 'success' }]);
  });

  it('answers 401, 404 for projects the caller may not see, 403 below Master on either side', async () => {
    const ann = await createUser(t);
    const g = await createGroup(t, { path: 'g', visibility: 'public' });
    const mine = await createProject(t, { namespace: g, path: 'mine', visibility: 'public' });
    const readable = await createProject(t, { namespace: g, path: 'readable', visibility: 'public' });
    const hidden = await createProject(t, { namespace: g, path: 'hidden' });
    await addProjectMember(t, mine, ann, 40);
    const post = (token: string | undefined, to: number, from: number | string) =>
      api(t, token).post(`/api/v4/projects/${to}/import_project_members/${from}`);
    expect((await post(undefined, mine.id, readable.id)).status).toBe(401);
    expect((await post(ann.token, hidden.id, mine.id)).body).toEqual({ message: '404 Project Not Found' });
    const below = await post(ann.token, readable.id, mine.id);
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await post(ann.token, mine.id, hidden.id)).body).toEqual({ message: '404 Project Not Found' });
    expect((await post(ann.token, mine.id, 99999999999)).body).toEqual({ message: '404 Project Not Found' });
    const source = await post(ann.token, mine.id, readable.id);
    expect([source.status, source.body]).toEqual([403, { message: '403 Forbidden - Project' }]);
  });
});
