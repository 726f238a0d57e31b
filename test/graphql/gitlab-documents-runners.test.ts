import { parse, validate } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createRunner } from '../runners/runner-factories';
import { loadDocument } from './gitlab-frontend/load';
import { MANIFEST } from './gitlab-frontend/manifest';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

/** GitLab's runner list pages' documents (test/graphql/gitlab-frontend/documents), run unmodified. */
const ALL = 'ci/runner/graphql/list/all_runners.query.graphql';
const ALL_COUNT = 'ci/runner/graphql/list/all_runners_count.query.graphql';
const GROUP = 'ci/runner/graphql/list/group_runners.query.graphql';
const GROUP_COUNT = 'ci/runner/graphql/list/group_runners_count.query.graphql';
const PROJECT = 'ci/runner/graphql/list/project_runners.query.graphql';
const ASSIGNABLE = 'ci/runner/graphql/list/project_assignable_runners.query.graphql';
const ASSIGN = 'ci/runner/graphql/list/runner_assign_to_project.mutation.graphql';
const UNASSIGN = 'ci/runner/graphql/list/runner_unassign_from_project.mutation.graphql';
const BULK_DELETE = 'ci/runner/graphql/list/bulk_runner_delete.mutation.graphql';
const BULK_PAUSE = 'ci/runner/graphql/list/bulk_runner_pause.mutation.graphql';
const SETTINGS = 'ci/runner/project_runners_settings/graphql/group_runners_enabled.query.graphql';
const SETTINGS_UPDATE = 'ci/runner/project_runners_settings/graphql/group_runners_enabled.mutation.graphql';
const DOCUMENTS = [
  ALL,
  ALL_COUNT,
  GROUP,
  GROUP_COUNT,
  PROJECT,
  ASSIGNABLE,
  ASSIGN,
  UNASSIGN,
  BULK_DELETE,
  BULK_PAUSE,
  SETTINGS,
  SETTINGS_UPDATE,
];

const run = async (file: string, variables: Record<string, unknown>, token = ROOT_TOKEN) => {
  const res = await runDocument(t.server, file, variables, token);
  expect(res.status).toBe(200);
  return res;
};
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const dbId = (g: unknown) => Number(String(g).split('/').pop());

/** GitLab's runner list variables (its admin page: CREATED_DESC, 20 a page). */
const PAGE = { first: 20, sort: 'CREATED_DESC' };

type Rest = Record<string, unknown> & { id: number };
const restIds = async (path: string, token = ROOT_TOKEN): Promise<number[]> =>
  ((await api(t, token).get(path).expect(200)).body as Rest[]).map((r) => r.id).sort((a, b) => a - b);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/**
 * A group with a subgroup, a project in each and one outside; runners enabled in each project, a shared
 * runner and a paused one; reported versions on the ones that made contact.
 */
async function fleet() {
  const g = await createGroup(t, { path: 'fleet', name: 'Fleet' });
  const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: g });
  const other = await createGroup(t, { path: 'elsewhere' });
  const p = await createProject(t, { namespace: g, path: 'app', name: 'App' });
  const q = await createProject(t, { namespace: sub, path: 'lib', name: 'Lib' });
  const o = await createProject(t, { namespace: other, path: 'tool', name: 'Tool' });
  const root = (await api(t, ROOT_TOKEN).get('/api/v4/user').expect(200)).body as Rest;
  const contacted = new Date(Date.now() - 60_000);
  const shared = await createRunner(t, {
    shared: true,
    description: 'shared docker',
    tagList: ['docker'],
    contactedAt: contacted,
    version: '16.11.1',
    revision: 'abc123',
    platform: 'linux',
    architecture: 'amd64',
    creator: { id: root.id },
  });
  const rp = await createRunner(t, {
    description: 'app runner',
    projects: [p, o],
    contactedAt: contacted,
    version: '15.2.3',
    platform: 'darwin',
    architecture: 'arm64',
  });
  const rq = await createRunner(t, { description: 'lib runner', projects: [q], locked: true });
  const ro = await createRunner(t, { description: 'tool runner', projects: [o], active: false });
  return { g, sub, other, p, q, o, root, shared, rp, rq, ro };
}

describe("GitLab's runner list documents", () => {
  it('validate against the public schema, and the manifest says so', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    for (const file of DOCUMENTS) {
      const loaded = loadDocument(file);
      expect([file, validate(schema, parse(loaded.source!)).map((e) => e.message)]).toEqual([file, []]);
      expect([file, MANIFEST[file].expected]).toEqual([file, 'validates']);
    }
  });

  it("the admin list (all_runners.query) shows every runner with what GET /runners/:id shows, and each row's links", async () => {
    const w = await fleet();
    const res = await run(ALL, PAGE);
    expect(res.errors).toBeUndefined();
    const nodes = (res.data!.runners as { nodes: Record<string, unknown>[] }).nodes;
    expect(sorted(nodes.map((n) => dbId(n.id)))).toEqual(await restIds('/api/v4/runners/all'));
    // CREATED_DESC: newest first.
    const created = nodes.map((n) => Date.parse(n.createdAt as string));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    for (const n of nodes) {
      const id = dbId(n.id);
      const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${id}`).expect(200)).body;
      const projects = rest.projects as Rest[];
      expect(n).toEqual({
        id: gid(id),
        description: rest.description,
        runnerType: rest.is_shared ? 'INSTANCE_TYPE' : 'PROJECT_TYPE',
        shortSha: (rest.token as string).slice(0, 8),
        paused: !rest.active,
        locked: rest.locked,
        tagList: rest.tag_list,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        createdBy:
          id === w.shared.id
            ? {
                id: `gid://gitlab/User/${w.root.id}`,
                avatarUrl: w.root.avatar_url,
                name: w.root.name,
                username: w.root.username,
                webUrl: w.root.web_url,
              }
            : null,
        contactedAt: rest.contacted_at,
        status: rest.contacted_at ? 'ONLINE' : 'NEVER_CONTACTED',
        jobExecutionStatus: 'IDLE',
        userPermissions: { updateRunner: true, deleteRunner: true },
        // A runner's manager is the runner once it made contact: its version is what GET /runners/:id reports.
        managers: rest.contacted_at
          ? { count: 1, nodes: [{ version: rest.version, ipAddress: null }] }
          : { count: 0, nodes: [] },
        groups: null,
        ownerProject: projects.length
          ? {
              id: `gid://gitlab/Project/${projects[0].id}`,
              name: projects[0].name,
              fullPath: projects[0].path_with_namespace,
              nameWithNamespace: projects[0].name_with_namespace,
              webUrl: projects[0].web_url,
            }
          : null,
        adminUrl: `${EXTERNAL_URL}/admin/runners/${id}`,
        editAdminUrl: `${EXTERNAL_URL}/admin/runners/${id}/edit`,
      });
    }
    // Paged as the page pages it: two, then the rest from the cursor.
    const first = await run(ALL, { ...PAGE, first: 2 });
    const page1 = first.data!.runners as {
      nodes: { id: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string };
    };
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await run(ALL, { ...PAGE, after: page1.pageInfo.endCursor })).data!.runners as {
      nodes: { id: string }[];
      pageInfo: { hasNextPage: boolean };
    };
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect([...page1.nodes, ...page2.nodes].map((n) => n.id)).toEqual(nodes.map((n) => n.id));
    // Not an administrator: GitLab's runners is null with an error.
    const user = await createUser(t);
    const denied = await runDocument(t.server, ALL, PAGE, user.token);
    expect(denied.data).toEqual({ runners: null });
    expect(denied.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it("the admin tab counts (all_runners_count.query) count what GET /runners/all's scopes list, and version and creator filters", async () => {
    const w = await fleet();
    const count = async (variables: Record<string, unknown>) => {
      const res = await run(ALL_COUNT, variables);
      expect(res.errors).toBeUndefined();
      return (res.data!.runners as { count: number }).count;
    };
    expect(await count({})).toBe((await restIds('/api/v4/runners/all')).length);
    expect(await count({ type: 'INSTANCE_TYPE' })).toBe((await restIds('/api/v4/runners/all?scope=shared')).length);
    expect(await count({ type: 'PROJECT_TYPE' })).toBe((await restIds('/api/v4/runners/all?scope=specific')).length);
    expect(await count({ paused: true })).toBe((await restIds('/api/v4/runners/all?scope=paused')).length);
    expect(await count({ status: 'ONLINE' })).toBe((await restIds('/api/v4/runners/all?scope=online')).length);
    expect(await count({ tagList: ['docker'] })).toBe(1);
    // GitLab's search: a word of the description, or a runner's whole token.
    expect(await count({ search: 'runner' })).toBe(3);
    expect(await count({ search: w.rq.token })).toBe(1);
    expect(await count({ search: w.rq.token.slice(0, 10) })).toBe(0);
    // The version of a runner's manager: what a runner that made contact reported at registration.
    const details = await Promise.all(
      (await restIds('/api/v4/runners/all')).map(
        async (id) => (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${id}`)).body as Rest,
      ),
    );
    const withVersion = (prefix: string) =>
      details.filter((d) => d.contacted_at && String(d.version ?? '').startsWith(prefix)).length;
    expect(await count({ versionPrefix: '16.' })).toBe(withVersion('16.'));
    expect(await count({ versionPrefix: '15.2' })).toBe(withVersion('15.2'));
    expect(await count({ versionPrefix: '16.' })).toBe(1);
    expect(await count({ versionPrefix: 'x' })).toBe(details.length);
    // GitLab's creatorUsername (the page's `creator`): runners created by that user; an unknown one matches none.
    expect(await count({ creator: w.root.username })).toBe(1);
    expect(await count({ creator: 'nobody-here' })).toBe(0);
  });

  it("a group's runners (group_runners.query and its counts): the project runners of its subtree; ALL_AVAILABLE adds the shared ones, which GET /groups/:id/runners lists", async () => {
    const w = await fleet();
    const maintainer = await createUser(t);
    await addGroupMember(t, w.g, maintainer, 40);
    const groupRunners = async (membership: string, extra: Record<string, unknown> = {}, token = maintainer.token) => {
      const res = await run(GROUP, { groupFullPath: w.g.fullPath, membership, ...PAGE, ...extra }, token);
      expect(res.errors).toBeUndefined();
      return (res.data!.group as { runners: { edges: Record<string, unknown>[] } | null }).runners;
    };
    const groupCount = async (membership: string, extra: Record<string, unknown> = {}) => {
      const res = await run(GROUP_COUNT, { groupFullPath: w.g.fullPath, membership, ...extra }, maintainer.token);
      expect(res.errors).toBeUndefined();
      return (res.data!.group as { runners: { count: number } }).runners.count;
    };
    const ids = (conn: { edges: Record<string, unknown>[] } | null) =>
      sorted(conn!.edges.map((e) => dbId((e.node as { id: string }).id)));
    // DESCENDANTS (the page's default): the runners enabled in projects of the group and its subgroup, as
    // those projects' runner lists (GET /projects/:id/runners?scope=specific) show them.
    const subtree = sorted([
      ...new Set([
        ...(await restIds(`/api/v4/projects/${w.p.id}/runners?scope=specific`)),
        ...(await restIds(`/api/v4/projects/${w.q.id}/runners?scope=specific`)),
      ]),
    ]);
    const descendants = await groupRunners('DESCENDANTS');
    expect(ids(descendants)).toEqual(subtree);
    expect(subtree).toEqual(sorted([w.rp.id, w.rq.id]));
    expect(await groupCount('DESCENDANTS')).toBe(subtree.length);
    // ALL_AVAILABLE of type INSTANCE_TYPE is REST's GET /groups/:id/runners (shared runners: no group runners here).
    const restGroup = await restIds(`/api/v4/groups/${w.g.id}/runners`, maintainer.token);
    expect(ids(await groupRunners('ALL_AVAILABLE', { type: 'INSTANCE_TYPE' }))).toEqual(restGroup);
    expect(ids(await groupRunners('ALL_AVAILABLE'))).toEqual(sorted([...subtree, ...restGroup]));
    expect(await groupCount('ALL_AVAILABLE')).toBe(subtree.length + restGroup.length);
    // DIRECT: the group's own group runners, none here.
    expect(ids(await groupRunners('DIRECT'))).toEqual([]);
    expect(await groupCount('DIRECT')).toBe(0);
    expect(await groupCount('DESCENDANTS', { paused: false, type: 'PROJECT_TYPE' })).toBe(2);
    // Each edge links to the runner's page under the group; projectCount counts every project it is enabled in.
    const groupUrl = (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${w.g.id}`).expect(200)).body.web_url;
    for (const e of descendants!.edges) {
      const node = e.node as { id: string; projectCount: number };
      const rest = (
        await api(t, ROOT_TOKEN)
          .get(`/api/v4/runners/${dbId(node.id)}`)
          .expect(200)
      ).body;
      expect([e.webUrl, e.editUrl, node.projectCount]).toEqual([
        `${groupUrl}/-/runners/${dbId(node.id)}`,
        `${groupUrl}/-/runners/${dbId(node.id)}/edit`,
        (rest.projects as Rest[]).length,
      ]);
    }
    // Below Maintainer: null, as REST's 403.
    const developer = await createUser(t);
    await addGroupMember(t, w.g, developer, 30);
    expect(await groupRunners('DESCENDANTS', {}, developer.token)).toBeNull();
    await api(t, developer.token).get(`/api/v4/groups/${w.g.id}/runners`).expect(403);
  });

  it("a project's runners (project_runners.query) are GET /projects/:id/runners, with links under the project", async () => {
    const w = await fleet();
    const maintainer = await createUser(t);
    await addProjectMember(t, w.o, maintainer, 40);
    const res = await run(PROJECT, { fullPath: w.o.fullPath }, maintainer.token);
    expect(res.errors).toBeUndefined();
    const conn = (res.data!.project as { runners: { count: number; edges: Record<string, unknown>[] } }).runners;
    const rest = await restIds(`/api/v4/projects/${w.o.id}/runners`, maintainer.token);
    expect(sorted(conn.edges.map((e) => dbId((e.node as { id: string }).id)))).toEqual(rest);
    expect(conn.count).toBe(rest.length);
    const projectUrl = (await api(t, maintainer.token).get(`/api/v4/projects/${w.o.id}`).expect(200)).body.web_url;
    for (const e of conn.edges) {
      const id = dbId((e.node as { id: string }).id);
      expect([e.webUrl, e.editUrl]).toEqual([`${projectUrl}/-/runners/${id}`, `${projectUrl}/-/runners/${id}/edit`]);
    }
    // The maintainer owns the runners enabled here: they may change them, and remove the one enabled here only.
    const perms = Object.fromEntries(
      conn.edges.map((e) => {
        const n = e.node as { id: string; userPermissions: unknown };
        return [dbId(n.id), n.userPermissions];
      }),
    );
    expect(perms).toEqual({
      [w.shared.id]: { updateRunner: false, deleteRunner: false },
      [w.rp.id]: { updateRunner: true, deleteRunner: false },
      [w.ro.id]: { updateRunner: true, deleteRunner: true },
    });
    const specific = await run(PROJECT, { fullPath: w.o.fullPath, type: 'PROJECT_TYPE' }, maintainer.token);
    expect(
      sorted(
        (specific.data!.project as { runners: { edges: { node: { id: string } }[] } }).runners.edges.map((e) =>
          dbId(e.node.id),
        ),
      ),
    ).toEqual(await restIds(`/api/v4/projects/${w.o.id}/runners?scope=specific`, maintainer.token));
    // Below Maintainer: null (REST: 403).
    const developer = await createUser(t);
    await addProjectMember(t, w.o, developer, 30);
    const denied = await run(PROJECT, { fullPath: w.o.fullPath }, developer.token);
    expect(denied.data).toEqual({ project: { id: `gid://gitlab/Project/${w.o.id}`, runners: null } });
    await api(t, developer.token).get(`/api/v4/projects/${w.o.id}/runners`).expect(403);
  });

  it('the assignable runners (project_assignable_runners.query), then assigning and unassigning one, as REST sees it', async () => {
    const w = await fleet();
    const maintainer = await createUser(t);
    for (const project of [w.p, w.q, w.o]) await addProjectMember(t, project, maintainer, 40);
    const assignable = async () => {
      const res = await run(ASSIGNABLE, { fullPath: w.p.fullPath, first: 20 }, maintainer.token);
      expect(res.errors).toBeUndefined();
      return (res.data!.currentUser as { runners: { count: number; edges: Record<string, unknown>[] } }).runners;
    };
    // The runners the maintainer owns (GET /runners) that are not locked and not enabled in the project yet.
    const owned = (await api(t, maintainer.token).get('/api/v4/runners').expect(200)).body as Rest[];
    const inProject = await restIds(`/api/v4/projects/${w.p.id}/runners`, maintainer.token);
    const expected = sorted(owned.filter((r) => !inProject.includes(r.id)).map((r) => r.id)).filter(
      (id) => id !== w.rq.id, // locked
    );
    const before = await assignable();
    expect(sorted(before.edges.map((e) => dbId((e.node as { id: string }).id)))).toEqual(expected);
    expect(expected).toEqual([w.ro.id]);
    expect(before.count).toBe(1);
    // A user's list is no project's or group's: no runner page link there.
    expect(before.edges.map((e) => [e.webUrl, e.editUrl])).toEqual([[null, null]]);

    const assigned = await run(ASSIGN, { projectPath: w.p.fullPath, runnerId: gid(w.ro.id) }, maintainer.token);
    expect(assigned.errors).toBeUndefined();
    expect(assigned.data).toEqual({ runnerAssignToProject: { errors: [] } });
    expect(await restIds(`/api/v4/projects/${w.p.id}/runners?scope=specific`, maintainer.token)).toContain(w.ro.id);
    expect((await assignable()).count).toBe(0);
    const again = await run(ASSIGN, { projectPath: w.p.fullPath, runnerId: gid(w.ro.id) }, maintainer.token);
    expect(again.data).toEqual({ runnerAssignToProject: { errors: ['Runner was already enabled for this project'] } });

    const unassigned = await run(UNASSIGN, { projectPath: w.p.fullPath, runnerId: gid(w.ro.id) }, maintainer.token);
    expect(unassigned.data).toEqual({ runnerUnassignFromProject: { errors: [] } });
    expect(await restIds(`/api/v4/projects/${w.p.id}/runners?scope=specific`, maintainer.token)).not.toContain(w.ro.id);
    // Its last project: refused as REST refuses it.
    const last = await runDocument(
      t.server,
      UNASSIGN,
      { projectPath: w.o.fullPath, runnerId: gid(w.ro.id) },
      maintainer.token,
    );
    expect(last.data).toEqual({ runnerUnassignFromProject: null });
    expect(last.errors!.map((e) => [e.extensions?.code, e.message])).toEqual([
      ['FORBIDDEN', '403 Forbidden - Only one project associated with the runner. Please remove the runner instead'],
    ]);
    // Another user's list: null.
    const other = await run(ASSIGNABLE, { fullPath: w.p.fullPath }, ROOT_TOKEN);
    expect((other.data!.currentUser as { runners: unknown }).runners).toEqual({
      count: 0,
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
  });

  it('bulk delete (bulk_runner_delete.mutation) removes each runner as runnerDelete does, 50 at most, administrators only', async () => {
    const w = await fleet();
    const user = await createUser(t);
    const refused = await runDocument(t.server, BULK_DELETE, { input: { ids: [gid(w.ro.id)] } }, user.token);
    expect(refused.data).toEqual({ bulkRunnerDelete: null });
    expect(refused.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.ro.id}`).expect(200);

    const res = await run(BULK_DELETE, { input: { ids: [gid(w.ro.id), gid(w.rq.id), gid(999999)] } });
    expect(res.data).toEqual({
      bulkRunnerDelete: { deletedIds: [gid(w.rq.id), gid(w.ro.id)], errors: [] },
    });
    for (const id of [w.ro.id, w.rq.id]) await api(t, ROOT_TOKEN).get(`/api/v4/runners/${id}`).expect(404);
    // Each removal wrote runnerDelete's audit event.
    const events = (await api(t, ROOT_TOKEN).get('/api/v4/audit_events?per_page=100').expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    const removed = events.filter((e) => e.details.remove === 'runner').map((e) => Number(e.details.target_id));
    expect(sorted(removed)).toEqual(sorted([w.ro.id, w.rq.id]));

    const many = [];
    for (let i = 0; i < 51; i += 1) many.push(await createRunner(t, { shared: true, description: `bulk ${i}` }));
    const limited = await run(BULK_DELETE, { input: { ids: many.map((r) => gid(r.id)) } });
    const payload = limited.data!.bulkRunnerDelete as { deletedIds: string[]; errors: string[] };
    expect(payload.deletedIds).toEqual(many.slice(0, 50).map((r) => gid(r.id)));
    expect(payload.errors).toEqual(['Can only delete up to 50 runners per call. Ignored the remaining runner(s).']);
    await api(t, ROOT_TOKEN).get(`/api/v4/runners/${many[50].id}`).expect(200);
  });

  it('bulk pause (bulk_runner_pause.mutation) pauses and resumes each runner as runnerUpdate does', async () => {
    const w = await fleet();
    const ids = [w.shared.id, w.rp.id];
    const paused = await run(BULK_PAUSE, { input: { ids: ids.map(gid), paused: true } });
    expect(paused.errors).toBeUndefined();
    expect(paused.data).toEqual({
      runnerBulkPause: {
        updatedCount: 2,
        updatedRunners: ids.map((id) => ({
          id: gid(id),
          paused: true,
          userPermissions: { updateRunner: true, deleteRunner: true },
        })),
        errors: [],
      },
    });
    for (const id of ids) expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${id}`)).body.active).toBe(false);
    const events = (await api(t, ROOT_TOKEN).get('/api/v4/audit_events?per_page=100').expect(200)).body as {
      details: Record<string, unknown>;
    }[];
    expect(
      sorted(
        events
          .filter((e) => e.details.change === 'active' && e.details.to === 'false')
          .map((e) => Number(e.details.target_id)),
      ),
    ).toEqual(sorted(ids));
    const resumed = await run(BULK_PAUSE, { input: { ids: [gid(w.rp.id)], paused: false } });
    expect((resumed.data!.runnerBulkPause as { updatedCount: number }).updatedCount).toBe(1);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.rp.id}`)).body.active).toBe(true);
    const none = await run(BULK_PAUSE, { input: { ids: [gid(999999)], paused: true } });
    expect(none.data).toEqual({ runnerBulkPause: { updatedCount: 0, updatedRunners: [], errors: [] } });
    const user = await createUser(t);
    const refused = await runDocument(
      t.server,
      BULK_PAUSE,
      { input: { ids: [gid(w.rp.id)], paused: true } },
      user.token,
    );
    expect(refused.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it("the project's group runners setting (group_runners_enabled query and mutation): on by default, its Maintainers change it", async () => {
    const w = await fleet();
    const maintainer = await createUser(t);
    const developer = await createUser(t);
    await addProjectMember(t, w.p, maintainer, 40);
    await addProjectMember(t, w.p, developer, 30);
    const state = async (token: string) =>
      ((await run(SETTINGS, { fullPath: w.p.fullPath }, token)).data!.project as { ciCdSettings: unknown })
        .ciCdSettings;
    expect(await state(maintainer.token)).toEqual({ groupRunnersEnabled: true });
    const off = await run(
      SETTINGS_UPDATE,
      { input: { fullPath: w.p.fullPath, groupRunnersEnabled: false } },
      maintainer.token,
    );
    expect(off.data).toEqual({
      projectCiCdSettingsUpdate: { ciCdSettings: { groupRunnersEnabled: false }, errors: [] },
    });
    expect(await state(maintainer.token)).toEqual({ groupRunnersEnabled: false });
    expect(await state(ROOT_TOKEN)).toEqual({ groupRunnersEnabled: false });
    // Other projects keep the default; a Developer sees no settings and may not change them.
    expect(
      ((await run(SETTINGS, { fullPath: w.q.fullPath }, ROOT_TOKEN)).data!.project as { ciCdSettings: unknown })
        .ciCdSettings,
    ).toEqual({
      groupRunnersEnabled: true,
    });
    expect(await state(developer.token)).toBeNull();
    const denied = await runDocument(
      t.server,
      SETTINGS_UPDATE,
      { input: { fullPath: w.p.fullPath, groupRunnersEnabled: true } },
      developer.token,
    );
    expect(denied.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    expect(await state(maintainer.token)).toEqual({ groupRunnersEnabled: false });
  });

  it('list pages cost the same statements for 1 runner and for 20 (per-row fields batched)', async () => {
    const g = await createGroup(t, { path: 'batch' });
    const p = await createProject(t, { namespace: g, path: 'one' });
    const maintainer = await createUser(t);
    await addGroupMember(t, g, maintainer, 40);
    await createRunner(t, { projects: [p], contactedAt: new Date(), version: '16.0.0' });
    const statements = async () => ({
      all: (await t.countQueries(() => run(ALL, PAGE))).count,
      group: (
        await t.countQueries(() =>
          run(GROUP, { groupFullPath: g.fullPath, membership: 'DESCENDANTS', ...PAGE }, maintainer.token),
        )
      ).count,
    });
    const one = await statements();
    for (let i = 0; i < 19; i += 1) {
      const q = await createProject(t, { namespace: g, path: `more-${i}` });
      await createRunner(t, { projects: [q, p], contactedAt: i % 2 ? new Date() : null, version: '16.1.0' });
    }
    const twenty = await statements();
    expect((await run(ALL, PAGE)).data!.runners).toMatchObject({ nodes: expect.any(Array) });
    expect(((await run(ALL, PAGE)).data!.runners as { nodes: unknown[] }).nodes).toHaveLength(20);
    expect(twenty).toEqual(one);
  });
});
