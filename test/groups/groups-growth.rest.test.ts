import { addBulkSubgroups } from '../support/bulk';
import { addGroupMember, createGroup, createUser, queryOne, type TestGroup, type TestUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * The plans that keep group lists flat at a million groups return what they did.
 * A user's own groups are read first and then ordered; with all_available the count adds up two
 * disjoint branches (visible by level, else by id); deep offset pages skip on ids first.
 * Data: 1,050 public subgroups of one public group, a private and an internal top-level group; the
 * user is a Developer of the private one, of the public parent and of the internal one.
 */
const t = useTestApp({ reset: 'once' });
let user: TestUser;
let parent: TestGroup;
let secret: TestGroup;
let inside: TestGroup;

beforeAll(async () => {
  parent = await createGroup(t, { path: 'growth', name: 'Growth', visibility: 'public' });
  await addBulkSubgroups(t, parent, 1, 1_050);
  secret = await createGroup(t, { path: 'secret', name: 'Secret', visibility: 'private' });
  inside = await createGroup(t, { path: 'inside', name: 'Inside', visibility: 'internal' });
  await createGroup(t, { path: 'unrelated', name: 'Unrelated', visibility: 'private' });
  user = await createUser(t);
  for (const g of [secret, parent, inside]) await addGroupMember(t, g, user, 30);
}, 60000);

describe('GET /groups as a member (own groups)', () => {
  it('lists exactly their groups and the descendants, by name, with exact totals', async () => {
    const res = await api(t, user.token).get('/api/v4/groups?per_page=3').expect(200);
    expect(res.headers['x-total']).toBe('1053');
    expect(res.body.map((g: { full_path: string }) => g.full_path)).toEqual(['growth', 'inside', 'secret']);
    const desc = await api(t, user.token)
      .get('/api/v4/groups?per_page=2&order_by=path&sort=desc&search=secr')
      .expect(200);
    expect(desc.body.map((g: { path: string }) => g.path)).toEqual(['secret']);
    expect(desc.headers['x-total']).toBe('1');
  });
});

describe('GET /groups?all_available=true as a member', () => {
  it('counts public and internal groups and their private ones once each', async () => {
    const res = await api(t, user.token).get('/api/v4/groups?all_available=true&per_page=1').expect(200);
    // 1 public parent + 1,050 public subgroups + internal + their private one (not "unrelated")
    expect(res.headers['x-total']).toBe('1053');
    const anonymous = await api(t).get('/api/v4/groups?per_page=1').expect(200);
    expect(anonymous.headers['x-total']).toBe('1051');
  });
});

describe('GET /groups deep offset pages', () => {
  it('page 52 of 20 (offset 1,020) equals rows 1,021-1,040 of the full order, for admins and members', async () => {
    const all = await queryOne<{ ids: number[] }>(
      t,
      `select array_agg(id order by name, id) as ids from namespaces where kind = 'group'`,
    );
    const admin = await api(t, ROOT_TOKEN).get('/api/v4/groups?per_page=20&page=52').expect(200);
    expect(admin.body.map((g: { id: number }) => g.id)).toEqual(all!.ids.map(Number).slice(1020, 1040));
    const mine = await queryOne<{ ids: number[] }>(
      t,
      `select array_agg(id order by name, id) as ids from namespaces where kind = 'group' and path <> 'unrelated'`,
    );
    const member = await api(t, user.token).get('/api/v4/groups?per_page=20&page=52').expect(200);
    expect(member.body.map((g: { id: number }) => g.id)).toEqual(mine!.ids.map(Number).slice(1020, 1040));
  });
});
