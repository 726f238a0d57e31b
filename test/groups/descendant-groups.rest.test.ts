import { addGroupMember, createGroup, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** GET /groups/:id/descendant_groups (later GitLab; docs/client-routes.md). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path);

describe('GET /groups/:id/descendant_groups', () => {
  it('lists the subgroups at any depth the caller may see, with the subgroups filters; never the group itself', async () => {
    const top = await createGroup(t, { path: 'top', visibility: 'public' });
    const a = await createGroup(t, { path: 'alpha', parent: top, visibility: 'public' });
    await createGroup(t, { path: 'alpha-one', parent: a, visibility: 'public' });
    await createGroup(t, { path: 'beta', parent: top, visibility: 'public' });
    const hidden = await createGroup(t, { path: 'hidden', parent: a, visibility: 'private' });
    await createGroup(t, { path: 'elsewhere', visibility: 'public' });

    const all = await admin().get(`/api/v4/groups/${top.id}/descendant_groups`).expect(200);
    expect(paths(all.body)).toEqual(['top/alpha', 'top/alpha/alpha-one', 'top/beta', 'top/alpha/hidden']);
    expect(all.headers['x-total']).toBe('4');
    expect(paths((await api(t).get('/api/v4/groups/top/descendant_groups').expect(200)).body)).toEqual([
      'top/alpha',
      'top/alpha/alpha-one',
      'top/beta',
    ]);
    const member = await createUser(t);
    await addGroupMember(t, hidden, member, 10);
    expect(
      paths(
        (await api(t, member.token).get(`/api/v4/groups/${a.id}/descendant_groups?all_available=true`).expect(200))
          .body,
      ),
    ).toEqual(['top/alpha/alpha-one', 'top/alpha/hidden']);
    // A search answers GitLab 10.3's search-hit entity (spec: groups search), paths only.
    const hits = await admin().get(`/api/v4/groups/${top.id}/descendant_groups?search=alpha&order_by=path&sort=desc`);
    expect(hits.body.map((g: { path: string }) => g.path)).toEqual(['alpha-one', 'alpha']);
    expect(paths((await admin().get(`/api/v4/groups/${hidden.id}/descendant_groups`).expect(200)).body)).toEqual([]);
    expect((await api(t).get(`/api/v4/groups/${hidden.id}/descendant_groups`).expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});
