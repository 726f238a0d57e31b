import { addGroupMember, createGroup, createUser, queryOne } from '../support/factories';
import { GROUP_DETAIL_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const SHARE_KEYS = ['expires_at', 'group_access_level', 'group_full_path', 'group_id', 'group_name'];

describe('POST /groups/:id/share', () => {
  it('shares the group with a group and answers the group with shared_with_groups', async () => {
    const owner = await createUser(t);
    const g = await createGroup(t, { path: 'shared', name: 'Shared', visibility: 'private' });
    const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
    await addGroupMember(t, g, owner, 50);
    const res = await api(t, owner.token)
      .post(`/api/v4/groups/${g.id}/share`)
      .send({ group_id: partner.id, group_access: 30, expires_at: '2030-01-31' });
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual([...GROUP_DETAIL_KEYS, 'shared_with_groups'].sort());
    expect(res.body.id).toBe(g.id);
    expect(res.body.shared_with_groups).toEqual([
      {
        group_id: partner.id,
        group_name: 'Partner',
        group_full_path: 'partner',
        group_access_level: 30,
        expires_at: '2030-01-31',
      },
    ]);
    expect(keys(res.body.shared_with_groups[0])).toEqual(SHARE_KEYS);
    const audit = await queryOne<{ details: Record<string, unknown> }>(
      t,
      "select details from audit_events where entity_type = 'Group' and entity_id = ? order by id desc limit 1",
      [g.id],
    );
    expect(audit?.details).toMatchObject({
      custom_message: 'Invited Partner to the group Shared',
      target_id: partner.id,
      target_details: 'partner',
    });
  });

  it('answers 409 for a second share of the pair', async () => {
    const g = await createGroup(t);
    const partner = await createGroup(t);
    const share = () =>
      api(t, ROOT_TOKEN).post(`/api/v4/groups/${g.id}/share`).send({ group_id: partner.id, group_access: 10 });
    expect((await share()).status).toBe(201);
    const again = await share();
    expect([again.status, again.body]).toEqual([
      409,
      { message: 'Shared group The group has already been shared with this group' },
    ]);
  });

  it('checks parameters first, then the groups (404), then the Owner role (404 Not Found, as GitLab)', async () => {
    const master = await createUser(t);
    const g = await createGroup(t, { path: 'g', visibility: 'public' });
    const partner = await createGroup(t, { path: 'partner', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret' });
    await addGroupMember(t, g, master, 40);
    const post = (token: string | undefined, body: object, id: number | string = g.id) =>
      api(t, token).post(`/api/v4/groups/${id}/share`).send(body);
    expect((await post(undefined, { group_id: partner.id, group_access: 30 })).status).toBe(401);
    expect((await post(master.token, { group_access: 30 })).body).toEqual({ error: 'group_id is missing' });
    expect((await post(master.token, { group_id: partner.id, group_access: 35 })).body).toEqual({
      error: 'group_access does not have a valid value',
    });
    expect((await post(master.token, { group_id: partner.id, group_access: 30, expires_at: 'soon' })).body).toEqual({
      error: 'expires_at is invalid',
    });
    expect((await post(master.token, { group_id: partner.id, group_access: 30 }, secret.id)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect((await post(master.token, { group_id: secret.id, group_access: 30 })).body).toEqual({
      message: '404 Group Not Found',
    });
    const below = await post(master.token, { group_id: partner.id, group_access: 30 });
    expect([below.status, below.body]).toEqual([404, { message: 'Not Found' }]);
  });

  it('lists only the invited groups the caller may see in GraphQL sharedWithGroups', async () => {
    const viewer = await createUser(t);
    const g = await createGroup(t, { path: 'g', visibility: 'public' });
    const open = await createGroup(t, { path: 'open', visibility: 'public' });
    const hidden = await createGroup(t, { path: 'hidden', visibility: 'private' });
    for (const other of [open, hidden])
      await api(t, ROOT_TOKEN).post(`/api/v4/groups/${g.id}/share`).send({ group_id: other.id, group_access: 20 });
    const q = '{ group(fullPath: "g") { sharedWithGroups { groupFullPath groupAccessLevel } } }';
    const seen = await api(t, viewer.token).post('/graphql').send({ query: q });
    expect(seen.body.data.group.sharedWithGroups).toEqual([{ groupFullPath: 'open', groupAccessLevel: 20 }]);
    const all = await api(t, ROOT_TOKEN).post('/graphql').send({ query: q });
    expect(all.body.data.group.sharedWithGroups.map((s: { groupFullPath: string }) => s.groupFullPath)).toEqual([
      'open',
      'hidden',
    ]);
  });
});

describe('groups { sharedWithGroups } (GraphQL)', () => {
  it('reads the shares of a page of groups in one statement (no N+1)', async () => {
    const partner = await createGroup(t, { path: 'partner', visibility: 'public' });
    const q = '{ groups(allAvailable: true, first: 20) { nodes { fullPath sharedWithGroups { groupId } } } }';
    const share = async (path: string) => {
      const g = await createGroup(t, { path, visibility: 'public' });
      await api(t, ROOT_TOKEN).post(`/api/v4/groups/${g.id}/share`).send({ group_id: partner.id, group_access: 30 });
    };
    await share('g-0');
    // Loaded once per instance, not per row: whether any group has an avatar (the list's avatar probe).
    await api(t, ROOT_TOKEN).post('/graphql').send({ query: q });
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).post('/graphql').send({ query: q }));
    for (let i = 1; i < 19; i += 1) await share(`g-${i}`);
    const many = await t.countQueries(() => api(t, ROOT_TOKEN).post('/graphql').send({ query: q }));
    const nodes = many.result.body.data.groups.nodes as { fullPath: string; sharedWithGroups: unknown[] }[];
    expect(nodes).toHaveLength(20);
    expect(nodes.filter((n) => n.sharedWithGroups.length === 1)).toHaveLength(19);
    expect(many.count).toBe(one.count);
  });
});

describe('DELETE /groups/:id/share/:group_id', () => {
  it('removes the share (204), 404 Group Link when there is none, 403 below Owner', async () => {
    const master = await createUser(t);
    const g = await createGroup(t, { path: 'g', name: 'Gee', visibility: 'public' });
    const partner = await createGroup(t, { path: 'partner', name: 'Partner', visibility: 'public' });
    await addGroupMember(t, g, master, 40);
    await api(t, ROOT_TOKEN).post(`/api/v4/groups/${g.id}/share`).send({ group_id: partner.id, group_access: 30 });
    const below = await api(t, master.token).delete(`/api/v4/groups/${g.id}/share/${partner.id}`);
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
    const res = await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}/share/${partner.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const gone = await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}/share/${partner.id}`);
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Group Link Not Found' }]);
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/groups/${g.id}/share/99999999999`)).body).toEqual({
      message: '404 Group Link Not Found',
    });
    const audit = await queryOne<{ details: Record<string, unknown> }>(
      t,
      "select details from audit_events where entity_type = 'Group' and entity_id = ? order by id desc limit 1",
      [g.id],
    );
    expect(audit?.details).toMatchObject({ custom_message: 'Removed Partner from the group Gee' });
  });
});
