import { parse, validate } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from '../runners/runner-factories';
import { loadDocument } from './gitlab-frontend/load';
import { MANIFEST } from './gitlab-frontend/manifest';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

/** GitLab's runner detail, creation and registration pages' documents, run unmodified. */
const DETAIL = 'ci/runner/graphql/show/runner.query.graphql';
const MANAGERS = 'ci/runner/graphql/show/runner_managers.query.graphql';
const PROJECTS = 'ci/runner/graphql/show/runner_projects.query.graphql';
const CREATE = 'ci/runner/graphql/new/runner_create.mutation.graphql';
const REGISTRATION = 'ci/runner/graphql/register/runner_for_registration.query.graphql';
const TOKEN_RESET = 'ci/runner/graphql/list/runners_registration_token_reset.mutation.graphql';
const DOCUMENTS = [DETAIL, MANAGERS, PROJECTS, CREATE, REGISTRATION, TOKEN_RESET];

const run = async (file: string, variables: Record<string, unknown>, token = ROOT_TOKEN) => {
  const res = await runDocument(t.server, file, variables, token);
  expect(res.status).toBe(200);
  return res;
};
const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;
const dbId = (g: unknown) => Number(String(g).split('/').pop());
type Rest = Record<string, unknown> & { id: number };

describe("GitLab's runner detail and registration documents", () => {
  it('validate against the public schema, and the manifest says so', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    for (const file of DOCUMENTS) {
      expect([file, validate(schema, parse(loadDocument(file).source!)).map((e) => e.message)]).toEqual([file, []]);
      expect([file, MANIFEST[file].expected]).toEqual([file, 'validates']);
    }
  });

  it("the runner page (runner.query) shows what GET /runners/:id shows; its managers (runner_managers.query) are the runner's contact details", async () => {
    const g = await createGroup(t, { path: 'detail' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const runner = await createRunner(t, {
      projects: [p],
      description: 'builder',
      tagList: ['docker', 'linux'],
      contactedAt: new Date(Date.now() - 120_000),
      version: '16.2.0',
      revision: 'f00ba4',
      platform: 'linux',
      architecture: 'amd64',
    });
    await createJob(t, { runner, project: p, status: 'success' });
    await createJob(t, { runner, project: p, status: 'running' });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}`).expect(200)).body;
    const jobs = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}/jobs`).expect(200)).body as Rest[];
    const res = await run(DETAIL, { id: gid(runner.id) });
    expect(res.errors).toBeUndefined();
    expect(res.data!.runner).toEqual({
      id: gid(runner.id),
      shortSha: runner.token.slice(0, 8),
      runnerType: 'PROJECT_TYPE',
      paused: !rest.active,
      accessLevel: (rest.access_level as string).toUpperCase(),
      runUntagged: rest.run_untagged,
      locked: rest.locked,
      description: rest.description,
      maximumTimeout: null,
      jobCount: jobs.length,
      tagList: rest.tag_list,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 'ONLINE',
      contactedAt: rest.contacted_at,
      tokenExpiresAt: null,
      version: rest.version,
      editAdminUrl: `${EXTERNAL_URL}/admin/runners/${runner.id}/edit`,
      managers: { count: 1 },
      userPermissions: { updateRunner: true, deleteRunner: true },
      groups: null,
    });
    const managers = await run(MANAGERS, { runnerId: gid(runner.id) });
    expect(managers.data).toEqual({
      runner: {
        id: gid(runner.id),
        managers: {
          count: 1,
          nodes: [
            {
              id: `gid://gitlab/Ci::RunnerManager/${runner.id}`,
              systemId: '<legacy>',
              version: rest.version,
              revision: rest.revision,
              executorName: null,
              architectureName: rest.architecture,
              platformName: rest.platform,
              ipAddress: null,
              contactedAt: rest.contacted_at,
            },
          ],
        },
      },
    });
    // The manager is a Node of its own.
    const node = await api(t, ROOT_TOKEN).graphql(
      `{ node(id: "gid://gitlab/Ci::RunnerManager/${runner.id}") { id ... on CiRunnerManager { systemId status runner { id } } } }`,
    );
    expect(node.body.data.node).toEqual({
      id: `gid://gitlab/Ci::RunnerManager/${runner.id}`,
      systemId: '<legacy>',
      status: 'ONLINE',
      runner: { id: gid(runner.id) },
    });
    // A runner that never made contact has no manager.
    const fresh = await createRunner(t, { projects: [p], version: '16.2.0' });
    const none = await run(MANAGERS, { runnerId: gid(fresh.id) });
    expect(none.data).toEqual({ runner: { id: gid(fresh.id), managers: { count: 0, nodes: [] } } });
    expect(((await run(DETAIL, { id: gid(fresh.id) })).data!.runner as { managers: unknown }).managers).toEqual({
      count: 0,
    });
    // REST's first contact (POST /runners/verify) makes the manager.
    await api(t).post('/api/v4/runners/verify').send({ token: fresh.token }).expect(200);
    expect(
      ((await run(MANAGERS, { runnerId: gid(fresh.id) })).data!.runner as { managers: { count: number } }).managers
        .count,
    ).toBe(1);
  });

  it("a runner's projects (runner_projects.query) page through the projects GET /runners/:id lists, newest first, with search", async () => {
    const g = await createGroup(t, { path: 'many' });
    const projects = [];
    for (let i = 0; i < 7; i += 1)
      projects.push(await createProject(t, { namespace: g, path: `proj-${i}`, name: `Proj ${i}` }));
    // Enabled first in proj-3: its owner project.
    const runner = await createRunner(t, { projects: [projects[3], ...projects.filter((_, i) => i !== 3)] });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${runner.id}`).expect(200)).body;
    const restProjects = rest.projects as Rest[];
    type Conn = {
      nodes: Record<string, unknown>[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string; startCursor: string };
    };
    // GitLab's runner page: 5 a page, an empty search until 3 characters are typed.
    const first = await run(PROJECTS, { id: gid(runner.id), search: '', first: 5 });
    expect(first.errors).toBeUndefined();
    const r1 = first.data!.runner as { ownerProject: { id: string }; projectCount: number; projects: Conn };
    expect(r1.ownerProject).toEqual({ id: `gid://gitlab/Project/${projects[3].id}` });
    expect(r1.projectCount).toBe(restProjects.length);
    expect(r1.projects.pageInfo.hasNextPage).toBe(true);
    const r2 = (await run(PROJECTS, { id: gid(runner.id), first: 5, after: r1.projects.pageInfo.endCursor })).data!
      .runner as { projects: Conn };
    expect(r2.projects.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const seen = [...r1.projects.nodes, ...r2.projects.nodes];
    expect(seen.map((n) => dbId(n.id))).toEqual(restProjects.map((p) => p.id).sort((a, b) => b - a));
    for (const n of seen) {
      const p = restProjects.find((x) => x.id === dbId(n.id))!;
      expect(n).toEqual({
        id: `gid://gitlab/Project/${p.id}`,
        avatarUrl: p.avatar_url,
        description: p.description,
        name: p.name,
        nameWithNamespace: p.name_with_namespace,
        webUrl: p.web_url,
      });
    }
    // Back from the second page, then a search.
    const back = (await run(PROJECTS, { id: gid(runner.id), last: 5, before: r2.projects.pageInfo.startCursor })).data!
      .runner as { projects: Conn };
    expect(back.projects.nodes.map((n) => n.id)).toEqual(r1.projects.nodes.map((n) => n.id));
    const found = (await run(PROJECTS, { id: gid(runner.id), search: 'proj-5', first: 5 })).data!.runner as {
      projects: Conn;
    };
    expect(found.projects.nodes.map((n) => dbId(n.id))).toEqual([projects[5].id]);
    const ascending = (await run(PROJECTS, { id: gid(runner.id), sort: 'name_asc', first: 2 })).data!.runner as {
      projects: Conn;
    };
    expect(ascending.projects.nodes.map((n) => n.name)).toEqual(['Proj 0', 'Proj 1']);
    // A Maintainer of one project sees that one (REST's detail shows them the same).
    const maintainer = await createUser(t);
    await addProjectMember(t, projects[2], maintainer, 40);
    const own = (await run(PROJECTS, { id: gid(runner.id), first: 5 }, maintainer.token)).data!.runner as {
      projectCount: number;
      projects: Conn;
    };
    const restOwn = (await api(t, maintainer.token).get(`/api/v4/runners/${runner.id}`).expect(200)).body;
    expect(own.projects.nodes.map((n) => dbId(n.id))).toEqual((restOwn.projects as Rest[]).map((p) => p.id));
    expect(own.projectCount).toBe(7);
    // A shared runner has no projects: null, as GitLab answers for an instance runner.
    const shared = await createRunner(t, { shared: true });
    expect(
      ((await run(PROJECTS, { id: gid(shared.id), first: 5 })).data!.runner as { projects: unknown }).projects,
    ).toBeNull();
  });

  it('creating a runner (runner_create.mutation) leads to its registration page; runner_for_registration.query shows its token to its creator while registration is open', async () => {
    const created = await run(CREATE, {
      input: {
        runnerType: 'INSTANCE_TYPE',
        description: 'new one',
        tagList: ['docker'],
        paused: false,
        runUntagged: true,
      },
    });
    expect(created.errors).toBeUndefined();
    const payload = created.data!.runnerCreate as {
      runner: { id: string; registerAdminUrl: string };
      errors: string[];
    };
    const id = dbId(payload.runner.id);
    expect(payload).toEqual({
      runner: { id: gid(id), registerAdminUrl: `${EXTERNAL_URL}/admin/runners/${id}/register` },
      errors: [],
    });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${id}`).expect(200)).body;
    expect(rest).toMatchObject({ description: 'new one', is_shared: true, tag_list: ['docker'] });
    // Its registration page: the token REST shows the administrator, for the creator only.
    const page = await run(REGISTRATION, { id: gid(id) });
    expect(page.data).toEqual({
      runner: { id: gid(id), description: 'new one', ephemeralAuthenticationToken: rest.token },
    });
    const admin = await createUser(t, { admin: true });
    const other = await run(REGISTRATION, { id: gid(id) }, admin.token);
    expect((other.data!.runner as { ephemeralAuthenticationToken: unknown }).ephemeralAuthenticationToken).toBeNull();
    // A Maintainer creates a project runner through REST: its token is theirs to see, the registration page is the admin's.
    const g = await createGroup(t, { path: 'reg' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const maintainer = await createUser(t);
    await addProjectMember(t, p, maintainer, 40);
    const viaRest = (
      await api(t, maintainer.token)
        .post('/api/v4/user/runners')
        .send({ runner_type: 'project_type', project_id: p.id })
        .expect(201)
    ).body;
    const theirs = await run(REGISTRATION, { id: gid(viaRest.id) }, maintainer.token);
    expect(theirs.data).toEqual({
      runner: { id: gid(viaRest.id), description: '', ephemeralAuthenticationToken: viaRest.token },
    });
    const projectCreate = await run(
      CREATE,
      { input: { runnerType: 'PROJECT_TYPE', projectId: p.id, description: 'by maintainer' } },
      maintainer.token,
    );
    expect(projectCreate.data!.runnerCreate).toMatchObject({ runner: { registerAdminUrl: null }, errors: [] });
    // Once the runner made contact (its first manager registered), the token is no longer shown.
    await api(t).post('/api/v4/runners/verify').send({ token: viaRest.token }).expect(200);
    const after = await run(REGISTRATION, { id: gid(viaRest.id) }, maintainer.token);
    expect((after.data!.runner as { ephemeralAuthenticationToken: unknown }).ephemeralAuthenticationToken).toBeNull();
    // A runner registered with a registration token has no creator: nothing to show either.
    const registered = await createRunner(t, { shared: true });
    const legacy = await run(REGISTRATION, { id: gid(registered.id) });
    expect((legacy.data!.runner as { ephemeralAuthenticationToken: unknown }).ephemeralAuthenticationToken).toBeNull();
    const detail = (await run(DETAIL, { id: gid(id) })).data!.runner as { editAdminUrl: string };
    expect(detail.editAdminUrl).toBe(`${EXTERNAL_URL}/admin/runners/${id}/edit`);
  });

  it("resetting a registration token (runners_registration_token_reset.mutation): the instance's, as GET /application/settings then shows it, or a project's", async () => {
    const before = (await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200)).body
      .runners_registration_token as string;
    const res = await run(TOKEN_RESET, { input: { type: 'INSTANCE_TYPE' } });
    expect(res.errors).toBeUndefined();
    const { token, errors } = res.data!.runnersRegistrationTokenReset as { token: string; errors: string[] };
    expect(errors).toEqual([]);
    expect(token).not.toBe(before);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/application/settings')).body.runners_registration_token).toBe(token);
    // The old token no longer registers runners; the new one does.
    await api(t).post('/api/v4/runners').send({ token: before }).expect(403);
    await api(t).post('/api/v4/runners').send({ token }).expect(201);

    const g = await createGroup(t, { path: 'tok' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const maintainer = await createUser(t);
    await addProjectMember(t, p, maintainer, 40);
    const projectReset = await run(
      TOKEN_RESET,
      { input: { type: 'PROJECT_TYPE', id: `gid://gitlab/Project/${p.id}` } },
      maintainer.token,
    );
    const projectToken = (projectReset.data!.runnersRegistrationTokenReset as { token: string }).token;
    expect(projectToken).not.toBe(p.runnersToken);
    expect((await api(t, maintainer.token).get(`/api/v4/projects/${p.id}`)).body.runners_token).toBe(projectToken);
    await api(t).post('/api/v4/runners').send({ token: p.runnersToken }).expect(403);
    await api(t).post('/api/v4/runners').send({ token: projectToken }).expect(201);

    // Not an administrator: the instance token is refused; there are no group runners to register.
    const denied = await runDocument(t.server, TOKEN_RESET, { input: { type: 'INSTANCE_TYPE' } }, maintainer.token);
    expect(denied.errors!.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    const group = await run(TOKEN_RESET, { input: { type: 'GROUP_TYPE', id: `gid://gitlab/Group/${g.id}` } });
    expect(group.data).toEqual({
      runnersRegistrationTokenReset: { token: null, errors: ['Group runners are not supported'] },
    });
  });
});
