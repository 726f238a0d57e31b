import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { keys } from '../support/keys';

/** GitLab 10.3's access requests API for groups and projects (lib/api/access_requests.rb). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);

/** Entities::AccessRequester: UserBasic plus requested_at. */
const REQUESTER_KEYS = ['avatar_url', 'id', 'name', 'requested_at', 'state', 'username', 'web_url'];
const MEMBER_KEYS = ['access_level', 'avatar_url', 'expires_at', 'id', 'name', 'state', 'username', 'web_url'];

describe('group access requests', () => {
  it("request, list, approve (Developer by default), with GitLab's permissions", async () => {
    const owner = await createUser(t, { username: 'owner1' });
    const asker = await createUser(t, { username: 'asker1' });
    const other = await createUser(t, { username: 'other1' });
    const g = await createGroup(t, { path: 'open-doors', visibility: 'public' });
    await addGroupMember(t, g, owner, 50);
    await admin().put(`/api/v4/groups/${g.id}`).send({ request_access_enabled: true }).expect(200);

    expect((await api(t).post(`/api/v4/groups/${g.id}/access_requests`).expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
    const requested = (await api(t, asker.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(201)).body;
    expect(keys(requested)).toEqual(REQUESTER_KEYS);
    expect(requested).toMatchObject({ id: asker.id, username: 'asker1', state: 'active' });
    // Once only; not for members.
    expect((await api(t, asker.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t, owner.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });

    expect((await api(t, other.token).get(`/api/v4/groups/${g.id}/access_requests`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    const list = await api(t, owner.token).get(`/api/v4/groups/${g.id}/access_requests`).expect(200);
    expect(list.body.map((r: { username: string }) => r.username)).toEqual(['asker1']);
    expect(list.headers['x-total']).toBe('1');

    expect(
      (await api(t, other.token).put(`/api/v4/groups/${g.id}/access_requests/${asker.id}/approve`).expect(403)).body,
    ).toEqual({ message: '403 Forbidden' });
    expect(
      (await api(t, owner.token).put(`/api/v4/groups/${g.id}/access_requests/${other.id}/approve`).expect(404)).body,
    ).toEqual({ message: '404 Not found' });
    expect(
      (
        await api(t, owner.token)
          .put(`/api/v4/groups/${g.id}/access_requests/${asker.id}/approve`)
          .send({ access_level: 60 })
          .expect(400)
      ).body,
    ).toEqual({ error: 'access_level does not have a valid value' });
    const member = (
      await api(t, owner.token).put(`/api/v4/groups/${g.id}/access_requests/${asker.id}/approve`).expect(201)
    ).body;
    expect(keys(member)).toEqual(MEMBER_KEYS);
    expect(member).toMatchObject({ id: asker.id, access_level: 30 });
    expect(
      (await api(t, owner.token).get(`/api/v4/groups/${g.id}/members/${asker.id}`).expect(200)).body.access_level,
    ).toBe(30);
    expect((await api(t, owner.token).get(`/api/v4/groups/${g.id}/access_requests`).expect(200)).body).toEqual([]);
  });

  it('refused where request_access_enabled is off; 404 for a group the caller cannot see', async () => {
    const asker = await createUser(t, { username: 'asker2' });
    const closed = await createGroup(t, { path: 'closed', visibility: 'public' });
    await admin().put(`/api/v4/groups/${closed.id}`).send({ request_access_enabled: false }).expect(200);
    expect((await api(t, asker.token).post(`/api/v4/groups/${closed.id}/access_requests`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    const hidden = await createGroup(t, { path: 'hidden', visibility: 'private' });
    expect((await api(t, asker.token).post(`/api/v4/groups/${hidden.id}/access_requests`).expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});

describe('project access requests', () => {
  it('deny by a Master or withdraw by the requester (204), approve with a level; GraphQL twins', async () => {
    const owner = await createUser(t, { username: 'powner1' });
    const a = await createUser(t, { username: 'pask1' });
    const b = await createUser(t, { username: 'pask2' });
    const c = await createUser(t, { username: 'pask3' });
    const p = (
      await api(t, owner.token)
        .post('/api/v4/projects')
        .send({ name: 'Open', visibility: 'public', request_access_enabled: true })
        .expect(201)
    ).body;
    for (const u of [a, b, c]) await api(t, u.token).post(`/api/v4/projects/${p.id}/access_requests`).expect(201);
    expect((await api(t, b.token).delete(`/api/v4/projects/${p.id}/access_requests/${a.id}`).expect(403)).body).toEqual(
      { message: '403 Forbidden' },
    );
    await api(t, b.token).delete(`/api/v4/projects/${p.id}/access_requests/${b.id}`).expect(204);
    await api(t, owner.token).delete(`/api/v4/projects/${p.id}/access_requests/${c.id}`).expect(204);
    expect(
      (await api(t, owner.token).delete(`/api/v4/projects/${p.id}/access_requests/${c.id}`).expect(404)).body,
    ).toEqual({ message: '404 Not found' });
    const gqlList = await api(t, owner.token).graphql(
      `{ project(id: "${p.id}") { accessRequests { count nodes { username requestedAt } } } }`,
    );
    expect(gqlList.body.data.project.accessRequests).toMatchObject({ count: 1, nodes: [{ username: 'pask1' }] });
    // Those who may not list them over REST (403) get null; the requester still sees the project.
    const asRequester = await api(t, a.token).graphql(`{ project(id: "${p.id}") { accessRequests { count } } }`);
    expect(asRequester.body).toEqual({ data: { project: { accessRequests: null } } });
    const approved = await api(t, owner.token).graphql(
      `mutation { projectAccessRequestApprove(input: { projectId: "${p.id}", userId: ${a.id}, accessLevel: 20 }) { member { userId accessLevel { integerValue } } errors } }`,
    );
    expect(approved.body.data.projectAccessRequestApprove).toEqual({
      member: { userId: a.id, accessLevel: { integerValue: 20 } },
      errors: [],
    });
    const audit = (await api(t, owner.token).get(`/api/v4/projects/${p.id}/audit_events`).expect(200)).body as {
      details: Record<string, string>;
    }[];
    expect(audit.slice(0, 3).map((e) => e.details.add ?? e.details.custom_message)).toEqual([
      'user_access',
      'Denied access request',
      'Withdrew access request',
    ]);
  });
});

describe('access requesters in GraphQL (own global ids)', () => {
  it('one user asking two groups is two objects with their own ids; node(id) for the requester and the managers only', async () => {
    const owner = await createUser(t, { username: 'owner-gid' });
    const asker = await createUser(t, { username: 'asker-gid' });
    const stranger = await createUser(t, { username: 'stranger-gid' });
    const ids: string[] = [];
    for (const path of ['doors-a', 'doors-b']) {
      const g = await createGroup(t, { path, visibility: 'public' });
      await addGroupMember(t, g, owner, 50);
      await admin().put(`/api/v4/groups/${g.id}`).send({ request_access_enabled: true }).expect(200);
      // REST keeps the user's id
      expect((await api(t, asker.token).post(`/api/v4/groups/${g.id}/access_requests`).expect(201)).body.id).toBe(
        asker.id,
      );
      const res = await api(t, owner.token)
        .graphql(`{ group(fullPath: "${path}") { accessRequests { nodes { id databaseId userId username } } } }`)
        .expect(200);
      const [node] = res.body.data.group.accessRequests.nodes;
      expect(node).toMatchObject({ userId: asker.id, username: 'asker-gid' });
      expect(node.id).toBe(`gid://gitlab/AccessRequest/${node.databaseId}`);
      ids.push(node.id);
    }
    expect(new Set(ids).size).toBe(2);
    const q = `query($ids: [ID!]!) { nodes(ids: $ids) { ... on AccessRequester { id userId } } }`;
    const seen = async (token: string) => (await api(t, token).graphql(q, { ids }).expect(200)).body.data.nodes;
    expect(await seen(owner.token)).toEqual(ids.map((id) => ({ id, userId: asker.id })));
    expect(await seen(asker.token)).toEqual(ids.map((id) => ({ id, userId: asker.id })));
    expect(await seen(stranger.token)).toEqual([null, null]);
  });
});
