import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  shareProject,
  type TestGroup,
  type TestProject,
  type TestUser,
} from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * A member's lists read their visibility from the membership tables (docs/growth.md, "Member
 * lists"). What a member of one private group sees, every way they can reach a private row:
 *   A (private) → B (private) → C (private): the member is a Developer of A only (B and C inherited);
 *   pA in A, pC in C; pS in X (private), shared with B; pE in X, shared with B until yesterday (expired);
 *   pD in Y0 → Y (private), the member is a Developer of pD only; pU in the member's own namespace;
 *   O (private) with pO: the member was a Developer of O until yesterday (expired); Z (private) with pZ: a stranger's.
 */
const t = useTestApp({ reset: 'once' });
let member: TestUser;
const g = {} as Record<'A' | 'B' | 'C' | 'X' | 'Y0' | 'Y' | 'O' | 'Z', TestGroup>;
const p = {} as Record<'pA' | 'pC' | 'pS' | 'pE' | 'pD' | 'pU' | 'pO' | 'pZ', TestProject>;

const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
const sql = (text: string, params: unknown[]) => t.orm.em.getConnection().execute(text, params);

beforeAll(async () => {
  member = await createUser(t);
  g.A = await createGroup(t, { path: 'mv-a' });
  g.B = await createGroup(t, { path: 'mv-b', parent: g.A });
  g.C = await createGroup(t, { path: 'mv-c', parent: g.B });
  g.X = await createGroup(t, { path: 'mv-x' });
  g.Y0 = await createGroup(t, { path: 'mv-y0' });
  g.Y = await createGroup(t, { path: 'mv-y', parent: g.Y0 });
  g.O = await createGroup(t, { path: 'mv-o' });
  g.Z = await createGroup(t, { path: 'mv-z' });
  p.pA = await createProject(t, { namespace: g.A, path: 'mv-pa' });
  p.pC = await createProject(t, { namespace: g.C, path: 'mv-pc' });
  p.pS = await createProject(t, { namespace: g.X, path: 'mv-ps' });
  p.pE = await createProject(t, { namespace: g.X, path: 'mv-pe' });
  p.pD = await createProject(t, { namespace: g.Y, path: 'mv-pd' });
  p.pU = await createProject(t, { namespace: { id: member.namespaceId }, path: 'mv-pu' });
  p.pO = await createProject(t, { namespace: g.O, path: 'mv-po' });
  p.pZ = await createProject(t, { namespace: g.Z, path: 'mv-pz' });
  await addGroupMember(t, g.A, member, 30);
  await shareProject(t, p.pS, g.B, 30);
  await shareProject(t, p.pE, g.B, 30);
  await sql(`update project_group_links set expires_at = current_date - 1 where project_id = ?`, [p.pE.id]);
  await addProjectMember(t, p.pD, member, 30);
  await addGroupMember(t, g.O, member, 30);
  await sql(`update group_members set expires_at = current_date - 1 where group_id = ? and user_id = ?`, [
    g.O.id,
    member.id,
  ]);
  await addGroupMember(t, g.Z, await createUser(t), 50);
});

describe('GET /projects as a member (private rows reached through memberships)', () => {
  const reached = () => ids([p.pA, p.pC, p.pS, p.pD, p.pU]);

  it('membership=true: group, inherited subgroup, share, direct and own-namespace projects; not expired nor foreign ones', async () => {
    const res = await api(t, member.token).get('/api/v4/projects?membership=true&per_page=100').expect(200);
    expect(ids(res.body)).toEqual(reached());
    expect(res.headers['x-total']).toBe('5');
  });

  it('the default list shows the same private projects, with an exact total', async () => {
    const res = await api(t, member.token).get('/api/v4/projects?per_page=100').expect(200);
    expect(ids(res.body)).toEqual(reached());
    expect(res.headers['x-total']).toBe('5');
  });

  it('page 2 of 2 by id desc is rows 3-4 of the full list (its ids sorted first, then the rows read)', async () => {
    const all = await api(t, member.token)
      .get('/api/v4/projects?membership=true&order_by=id&sort=desc&per_page=100')
      .expect(200);
    const page2 = await api(t, member.token)
      .get('/api/v4/projects?membership=true&order_by=id&sort=desc&per_page=2&page=2')
      .expect(200);
    expect(page2.body.map((x: { id: number }) => x.id)).toEqual(all.body.slice(2, 4).map((x: { id: number }) => x.id));
    expect(page2.headers['x-total']).toBe('5');
  });

  it('GET /projects/:id answers the reached ones and 404 for the others', async () => {
    for (const x of [p.pA, p.pC, p.pS, p.pD, p.pU])
      expect((await api(t, member.token).get(`/api/v4/projects/${x.id}`)).status).toBe(200);
    for (const x of [p.pE, p.pO, p.pZ])
      expect((await api(t, member.token).get(`/api/v4/projects/${x.id}`)).body).toEqual({
        message: '404 Project Not Found',
      });
  });

  it('GraphQL projects(membership: true) lists the same projects', async () => {
    const res = await api(t, member.token)
      .post('/graphql')
      .send({ query: '{ projects(membership: true) { nodes { name } } }' })
      .expect(200);
    const names = res.body.data.projects.nodes.map((n: { name: string }) => n.name).sort();
    expect(names).toEqual([p.pA, p.pC, p.pS, p.pD, p.pU].map((x) => x.name).sort());
  });
});

describe('GET /groups as a member (private groups reached through memberships)', () => {
  // their group and its inherited subgroups; the groups holding a project reached directly (Y) or by
  // share (X), with their ancestors (Y0); not O (expired) nor Z (a stranger's)
  const reached = () => ids([g.A, g.B, g.C, g.X, g.Y0, g.Y]);

  it('the default set', async () => {
    const res = await api(t, member.token).get('/api/v4/groups?per_page=100').expect(200);
    expect(ids(res.body)).toEqual(reached());
    expect(res.headers['x-total']).toBe('6');
  });

  it('all_available=true (no public or internal groups here): the same, counted once each', async () => {
    const res = await api(t, member.token).get('/api/v4/groups?all_available=true&per_page=100').expect(200);
    expect(ids(res.body)).toEqual(reached());
    expect(res.headers['x-total']).toBe('6');
  });

  it('GET /groups/:id answers the inherited subgroup and 404 for an expired membership', async () => {
    expect((await api(t, member.token).get(`/api/v4/groups/${g.C.id}`)).status).toBe(200);
    expect((await api(t, member.token).get(`/api/v4/groups/${g.O.id}`)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect((await api(t, member.token).get(`/api/v4/groups/${g.Z.id}`)).status).toBe(404);
  });

  it('an admin sees every group (no membership predicate)', async () => {
    const res = await api(t, ROOT_TOKEN).get('/api/v4/groups?per_page=100').expect(200);
    expect(ids(res.body)).toEqual(expect.arrayContaining(ids(Object.values(g))));
  });
});
