import { addGroupMember, createGroup, createUser, shareProject, type TestUser } from '../support/factories';
import { api, useTestApp } from '../support/test-app';
import { createRunner } from './runner-factories';
import { runnerWorld, type RunnerWorld } from './runner-fixture';

/**
 * A Master through a group share. GitLab's `ci_authorized_runners` is the specific runners of
 * `authorized_projects(MASTER)`, and project authorizations count shares (at the lower of the share's
 * and the membership's access). So such a Master owns the project's runners on every surface: the
 * runner's details with its token (REST and GraphQL), the project's runner list, the owned list.
 */
const t = useTestApp();

const RUNNER_DETAIL_KEYS = [
  'access_level',
  'active',
  'architecture',
  'contacted_at',
  'description',
  'id',
  'is_shared',
  'locked',
  'name',
  'platform',
  'projects',
  'revision',
  'run_untagged',
  'tag_list',
  'token',
  'version',
].sort();

interface ShareWorld extends RunnerWorld {
  /** Master of `partners`, which has the project shared at Master. */
  shareMaster: TestUser;
  /** Master of `guests`, which has `other` (only) shared at Developer: Developer on `other`. */
  shareDeveloper: TestUser;
  /** Owner of the parent of `partners-sub`, which has the project shared at Master. */
  parentOwner: TestUser;
}

async function shareWorld(): Promise<ShareWorld> {
  const w = await runnerWorld(t);
  const partners = await createGroup(t, { path: 'partners', visibility: 'private' });
  const guests = await createGroup(t, { path: 'guests', visibility: 'private' });
  const parent = await createGroup(t, { path: 'holding', visibility: 'private' });
  const sub = await createGroup(t, { path: 'partners-sub', parent, visibility: 'private' });
  const shareMaster = await createUser(t, { username: 'share-master' });
  const shareDeveloper = await createUser(t, { username: 'share-developer' });
  const parentOwner = await createUser(t, { username: 'parent-owner' });
  await addGroupMember(t, partners, shareMaster, 40);
  await addGroupMember(t, guests, shareDeveloper, 40);
  await addGroupMember(t, parent, parentOwner, 50);
  await shareProject(t, w.project, partners, 40);
  await shareProject(t, w.other, guests, 30);
  await shareProject(t, w.project, sub, 40);
  return { ...w, shareMaster, shareDeveloper, parentOwner };
}

const ids = (list: { id: number }[]) => list.map((r) => r.id);

describe('GET /runners/:id', () => {
  it('shows a Master through a share the runner with its token (200), like a Master through membership', async () => {
    const w = await shareWorld();
    for (const user of [w.shareMaster, w.parentOwner, w.master]) {
      const res = await api(t, user.token).get(`/api/v4/runners/${w.specific.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(RUNNER_DETAIL_KEYS);
      expect(res.body).toMatchObject({ id: w.specific.id, is_shared: false, token: w.specific.token });
      expect(ids(res.body.projects)).toEqual([w.project.id]);
    }
  });

  it('returns 403 for a Developer through a share (the share caps the access)', async () => {
    const w = await shareWorld();
    const res = await api(t, w.shareDeveloper.token).get(`/api/v4/runners/${w.multi.id}`);
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - No access granted' }]);
  });

  it('returns 403 once the share has expired', async () => {
    const w = await shareWorld();
    await t.orm.em
      .getConnection()
      .execute(
        `update project_group_links set expires_at = current_date where group_id in (select id from namespaces where path in ('partners', 'partners-sub'))`,
      );
    for (const user of [w.shareMaster, w.parentOwner]) {
      expect((await api(t, user.token).get(`/api/v4/runners/${w.specific.id}`)).body).toEqual({
        message: '403 Forbidden - No access granted',
      });
    }
  });
});

describe('the other runner routes with the same check', () => {
  it("a Master through a share lists, updates and reads the jobs of the project's runners", async () => {
    const w = await shareWorld();
    const owned = await api(t, w.shareMaster.token).get('/api/v4/runners').expect(200);
    expect(ids(owned.body)).toEqual([w.specific.id, w.multi.id]);
    const put = await api(t, w.shareMaster.token)
      .put(`/api/v4/runners/${w.specific.id}`)
      .send({ description: 'via share' });
    expect([put.status, put.body.description, put.body.token]).toEqual([200, 'via share', w.specific.token]);
    expect((await api(t, w.shareMaster.token).get(`/api/v4/runners/${w.specific.id}/jobs`)).status).toBe(200);
    // The share covers the shared project only: a runner of the group's other project stays 403.
    const elsewhere = await createRunner(t, { description: 'elsewhere', projects: [w.other] });
    expect((await api(t, w.shareMaster.token).get(`/api/v4/runners/${elsewhere.id}`)).body).toEqual({
      message: '403 Forbidden - No access granted',
    });
  });

  it('a Developer through a share gets 403 on the project runner list and on the runner', async () => {
    const w = await shareWorld();
    expect((await api(t, w.shareDeveloper.token).get(`/api/v4/projects/${w.other.id}/runners`)).body).toEqual({
      message: '403 Forbidden',
    });
    expect(
      (await api(t, w.shareDeveloper.token).put(`/api/v4/runners/${w.multi.id}`).send({ description: 'x' })).body,
    ).toEqual({ message: '403 Forbidden - No access granted' });
    expect((await api(t, w.shareDeveloper.token).get('/api/v4/runners').expect(200)).body).toEqual([]);
  });
});

describe('GraphQL and REST agree (one permission function)', () => {
  const PROJECT_RUNNERS = (projectId: number) =>
    `{ project(id: "${projectId}") { runners { nodes { id: databaseId isShared token } } } }`;

  it('Project.runners shows a Master through a share the tokens GET /runners/:id shows them; shared runners without token', async () => {
    const w = await shareWorld();
    const gql = await api(t, w.shareMaster.token).graphql(PROJECT_RUNNERS(w.project.id));
    expect(gql.body.errors).toBeUndefined();
    const nodes = gql.body.data.project.runners.nodes as { id: number; isShared: boolean; token: string | null }[];
    expect(nodes.map((n) => n.id)).toEqual([w.specific.id, w.shared.id, w.multi.id]);
    for (const node of nodes) {
      const rest = await api(t, w.shareMaster.token).get(`/api/v4/runners/${node.id}`).expect(200);
      expect(node.token).toBe(rest.body.token ?? null);
    }
    expect(nodes.find((n) => n.isShared)!.token).toBeNull();
    const one = await api(t, w.shareMaster.token).graphql(`{ runner(id: ${w.specific.id}) { token } }`);
    expect(one.body.data.runner.token).toBe(w.specific.token);
  });

  it('a Developer through a share gets no runner list and FORBIDDEN on runner(id), as REST answers 403', async () => {
    const w = await shareWorld();
    const list = await api(t, w.shareDeveloper.token).graphql(PROJECT_RUNNERS(w.other.id));
    expect(list.body).toEqual({ data: { project: { runners: null } } });
    expect((await api(t, w.shareDeveloper.token).get(`/api/v4/projects/${w.other.id}/runners`)).status).toBe(403);
    const one = await api(t, w.shareDeveloper.token).graphql(`{ runner(id: ${w.multi.id}) { token } }`);
    expect(one.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
