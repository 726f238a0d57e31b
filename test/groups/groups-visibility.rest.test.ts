import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  type TestGroup,
  type TestProject,
} from '../support/factories';
import { api, ROOT_TOKEN, setupTestApp, type TestApp } from '../support/test-app';

/**
 * The visibility matrix of docs/gitlab-compatibility.md ("Groups"): callers (anonymous, non-member, external user,
 * guest…owner of the group, guest…owner of an ancestor, admin) × group visibility (private, internal,
 * public) for GET /groups, /groups/:id, /groups/:id/subgroups and /groups/:id/projects.
 * Tree: A (public) → G_v (v) → S_v (v); project P_v (v) in G_v.
 */
type Vis = 'private' | 'internal' | 'public';
const VIS: Vis[] = ['private', 'internal', 'public'];
const LEVELS = [10, 20, 30, 40, 50];

let t: TestApp;
let ancestor: TestGroup;
const g = {} as Record<Vis, TestGroup>;
const s = {} as Record<Vis, TestGroup>;
const p = {} as Record<Vis, TestProject>;
const callers: { name: string; token?: string; kind: 'anonymous' | 'nonMember' | 'external' | 'member' | 'admin' }[] =
  [];

beforeAll(async () => {
  t = await setupTestApp();
  await t.reset();
  ancestor = await createGroup(t, { path: 'a', visibility: 'public' });
  for (const v of VIS) {
    g[v] = await createGroup(t, { path: `g-${v}`, visibility: v, parent: ancestor });
    s[v] = await createGroup(t, { path: `s-${v}`, visibility: v, parent: g[v] });
    p[v] = await createProject(t, { namespace: g[v], path: `p-${v}`, visibility: v });
  }
  callers.push({ name: 'anonymous', kind: 'anonymous' });
  callers.push({ name: 'non-member', token: (await createUser(t)).token, kind: 'nonMember' });
  callers.push({ name: 'external user', token: (await createUser(t, { external: true })).token, kind: 'external' });
  callers.push({ name: 'admin', token: ROOT_TOKEN, kind: 'admin' });
  for (const level of LEVELS) {
    const direct = await createUser(t);
    for (const v of VIS) await addGroupMember(t, g[v], direct, level);
    callers.push({ name: `member ${level} of the group`, token: direct.token, kind: 'member' });
    const inherited = await createUser(t);
    await addGroupMember(t, ancestor, inherited, level);
    callers.push({ name: `member ${level} of the ancestor`, token: inherited.token, kind: 'member' });
  }
});
afterAll(() => t.close());

function canSee(kind: string, v: Vis): boolean {
  if (kind === 'admin' || kind === 'member') return true;
  if (v === 'public') return true;
  return v === 'internal' && kind === 'nonMember';
}

const ids = (body: { id: number }[]) => body.map((x) => x.id).sort((a, b) => a - b);

describe('GET /groups/:id visibility matrix', () => {
  it.each(VIS)('matches the reference for a %s group and every caller', async (v) => {
    for (const c of callers) {
      const res = await api(t, c.token).get(`/api/v4/groups/${g[v].id}`);
      const expected = canSee(c.kind, v);
      expect({ caller: c.name, status: res.status }).toEqual({ caller: c.name, status: expected ? 200 : 404 });
      if (expected) expect(res.body.projects.map((x: { id: number }) => x.id)).toEqual([p[v].id]);
      else expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
  });
});

describe('GET /groups visibility matrix', () => {
  const all = () => ids([ancestor, ...VIS.map((v) => g[v]), ...VIS.map((v) => s[v])]);
  it('default set per caller', async () => {
    for (const c of callers) {
      const res = await api(t, c.token).get('/api/v4/groups?per_page=100');
      let expected: number[];
      if (c.kind === 'anonymous') expected = ids([ancestor, g.public, s.public]);
      else if (c.kind === 'admin' || c.kind === 'member') expected = all();
      else expected = []; // groups "of" a non-member: none
      expect({ caller: c.name, ids: ids(res.body) }).toEqual({ caller: c.name, ids: expected });
    }
  });

  it('all_available=true per caller', async () => {
    for (const c of callers) {
      const res = await api(t, c.token).get('/api/v4/groups?all_available=true&per_page=100');
      let expected: number[];
      if (c.kind === 'anonymous' || c.kind === 'external') expected = ids([ancestor, g.public, s.public]);
      else if (c.kind === 'nonMember') expected = ids([ancestor, g.public, s.public, g.internal, s.internal]);
      else expected = all();
      expect({ caller: c.name, ids: ids(res.body) }).toEqual({ caller: c.name, ids: expected });
    }
  });
});

describe('GET /groups/:id/subgroups visibility matrix', () => {
  it.each(VIS)('children of a %s group per caller', async (v) => {
    for (const c of callers) {
      const res = await api(t, c.token).get(`/api/v4/groups/${g[v].id}/subgroups`);
      const withAll = await api(t, c.token).get(`/api/v4/groups/${g[v].id}/subgroups?all_available=true`);
      if (!canSee(c.kind, v)) {
        expect({ caller: c.name, status: res.status, body: res.body }).toEqual({
          caller: c.name,
          status: 404,
          body: { message: '404 Group Not Found' },
        });
        continue;
      }
      let expected: number[];
      let expectedAll: number[];
      if (c.kind === 'member' || c.kind === 'admin') expected = expectedAll = [s[v].id];
      else if (c.kind === 'anonymous') expected = expectedAll = v === 'public' ? [s[v].id] : [];
      else {
        // Subgroups: an authenticated non-member gets [] unless all_available
        expected = [];
        expectedAll = canSee(c.kind, v) ? [s[v].id] : [];
      }
      expect({ caller: c.name, ids: ids(res.body), all: ids(withAll.body) }).toEqual({
        caller: c.name,
        ids: expected,
        all: expectedAll,
      });
    }
  });
});

describe('GET /groups/:id/projects visibility matrix', () => {
  it.each(VIS)('projects of a %s group per caller', async (v) => {
    for (const c of callers) {
      const res = await api(t, c.token).get(`/api/v4/groups/${g[v].id}/projects`);
      if (!canSee(c.kind, v)) {
        expect({ caller: c.name, status: res.status }).toEqual({ caller: c.name, status: 404 });
        continue;
      }
      expect({ caller: c.name, ids: ids(res.body) }).toEqual({ caller: c.name, ids: [p[v].id] });
    }
  });
});
