import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';
import { createGroup, createProject, createUser } from '../support/factories';
import { createJob, createRunner } from '../runners/runner-factories';
import { SSH_KEYS } from '../support/ssh-keys';
import { ALICE } from '../support/gpg-keys';

/**
 * Global ids behind a Node interface, node/nodes, gids as arguments, fullPath lookups
 * (docs/graphql.md#global-ids-and-lookups). REST keeps its numeric ids.
 */
const t = useTestApp();

type Body = { data: Record<string, unknown> | null; errors?: { message: string; extensions: { code: string } }[] };
const gql = async (token: string | undefined, query: string, variables?: Record<string, unknown>): Promise<Body> =>
  (
    await api(t, token)
      .graphql(query, variables)
      .expect((r) => expect(r.status).toBeLessThan(500))
  ).body as Body;
const ok = async (token: string | undefined, query: string, variables?: Record<string, unknown>) => {
  const body = await gql(token, query, variables);
  expect(body.errors).toBeUndefined();
  return body.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** One object of (almost) every Node type, made through the API as the root administrator. */
async function world(app: TestApp) {
  const alice = await createUser(app, { username: 'alice' });
  const group = await createGroup(app, { path: 'acme', visibility: 'public' });
  const secret = await createGroup(app, { path: 'secret', visibility: 'private' });
  const project = await createProject(app, { namespace: group, path: 'api', visibility: 'public' });
  const runner = await createRunner(app, { shared: true });
  const job = await createJob(app, { runner, project });
  await api(app, ROOT_TOKEN)
    .put('/api/v4/application/settings')
    .send({ allow_local_requests_from_system_hooks: true })
    .expect(200);
  // Each payload's object aliased `node`; every payload without errors.
  const payloads = await ok(
    ROOT_TOKEN,
    `mutation($u: UserID!) {
    bm: broadcastMessageCreate(input: { message: "hi" }) { node: broadcastMessage { id databaseId } errors }
    hook: systemHookCreate(input: { url: "http://127.0.0.1:9/x" }) { node: systemHook { id databaseId } errors }
    key: userSshKeyCreate(input: { userId: $u, title: "k", key: "${SSH_KEYS.rsa2048.key}" }) { node: sshKey { id databaseId } errors }
    gpg: userGpgKeyCreate(input: { userId: $u, key: ${JSON.stringify(ALICE.key)} }) { node: gpgKey { id databaseId } errors }
    email: userEmailCreate(input: { userId: $u, email: "alice2@example.com" }) { node: email { id databaseId } errors }
    token: impersonationTokenCreate(input: { userId: $u, name: "t", scopes: ["api"] }) { node: impersonationToken { id databaseId } errors }
    feature: featureGateSet(input: { name: "new_ui", value: "true" }) { node: feature { id name } errors }
    env: environmentCreate(input: { projectPath: "acme/api", name: "production" }) { node: environment { id databaseId } errors }
  }`,
    { u: `gid://gitlab/User/${alice.id}` },
  );
  const made: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const [name, payload] of Object.entries(payloads)) {
    expect([name, payload.errors]).toEqual([name, []]);
    made[name] = payload.node;
  }
  return { alice, group, secret, project, runner, job, made };
}

describe('global ids', () => {
  it('every Node type answers gid://gitlab/<Class>/<id> and its databaseId', async () => {
    const w = await world(t);
    const m = w.made;
    for (const [field, cls] of [
      ['bm', 'BroadcastMessage'],
      ['hook', 'SystemHook'],
      ['key', 'Key'],
      ['gpg', 'GpgKey'],
      ['email', 'Email'],
      ['token', 'PersonalAccessToken'],
      ['env', 'Environment'],
    ]) {
      expect(m[field].id).toBe(`gid://gitlab/${cls}/${m[field].databaseId}`);
    }
    expect(m.feature.id).toBe('gid://gitlab/Feature/new_ui');
    const d = await ok(
      ROOT_TOKEN,
      `query($r: CiRunnerID!) {
      group(fullPath: "acme") { id databaseId }
      project(fullPath: "acme/api") { id databaseId namespace { id } }
      user(id: ${w.alice.id}) { id databaseId }
      runner(id: $r) { id databaseId }
      runnerJobs: runner(id: $r) { jobs { nodes { id databaseId } } }
      auditEvents(first: 1) { nodes { id databaseId } }
      namespace(fullPath: "alice") { id databaseId }
    }`,
      { r: w.runner.id },
    );
    expect(d.group).toEqual({ id: `gid://gitlab/Group/${w.group.id}`, databaseId: w.group.id });
    expect(d.project).toEqual({
      id: `gid://gitlab/Project/${w.project.id}`,
      databaseId: w.project.id,
      namespace: { id: `gid://gitlab/Group/${w.group.id}` },
    });
    expect(d.user).toEqual({ id: `gid://gitlab/User/${w.alice.id}`, databaseId: w.alice.id });
    expect(d.runner).toEqual({ id: `gid://gitlab/Ci::Runner/${w.runner.id}`, databaseId: w.runner.id });
    expect(d.runnerJobs.jobs.nodes).toEqual([{ id: `gid://gitlab/Ci::Build/${w.job.id}`, databaseId: w.job.id }]);
    const audit = d.auditEvents.nodes[0];
    expect(audit.id).toBe(`gid://gitlab/AuditEvent/${audit.databaseId}`);
    expect(d.namespace).toEqual({
      id: `gid://gitlab/Namespaces::UserNamespace/${w.alice.namespaceId}`,
      databaseId: w.alice.namespaceId,
    });
  });

  it('a group and its namespace share one id (one object in a normalized cache)', async () => {
    const g = await createGroup(t, { path: 'shared', visibility: 'public' });
    const d = await ok(ROOT_TOKEN, '{ group(fullPath: "shared") { id } namespace(fullPath: "shared") { id } }');
    expect(d.group.id).toBe(`gid://gitlab/Group/${g.id}`);
    expect(d.namespace.id).toBe(d.group.id);
  });
});

describe('node and nodes', () => {
  it('resolve several types in one call, in order, null for what the caller may not see', async () => {
    const w = await world(t);
    const ids = [
      `gid://gitlab/Group/${w.group.id}`,
      `gid://gitlab/Project/${w.project.id}`,
      `gid://gitlab/User/${w.alice.id}`,
      `gid://gitlab/Ci::Runner/${w.runner.id}`,
      `gid://gitlab/Ci::Build/${w.job.id}`,
      w.made.bm.id,
      w.made.hook.id,
      w.made.key.id,
      w.made.gpg.id,
      w.made.email.id,
      w.made.token.id,
      w.made.feature.id,
      w.made.env.id,
      `gid://gitlab/Group/${w.secret.id}`,
      `gid://gitlab/Namespaces::UserNamespace/${w.alice.namespaceId}`,
      'gid://gitlab/Group/999999',
      'gid://gitlab/Group/99999999999',
    ];
    const q = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`;
    const admin = (await ok(ROOT_TOKEN, q, { ids })).nodes as ({ __typename: string; id: string } | null)[];
    expect(admin.map((n) => n?.__typename ?? null)).toEqual([
      'Group',
      'Project',
      'User',
      'CiRunner',
      'CiJob',
      'BroadcastMessage',
      'SystemHook',
      'SshKey',
      'GpgKey',
      'Email',
      'ImpersonationToken',
      'Feature',
      'Environment',
      'Group',
      'Namespace',
      null,
      null,
    ]);
    expect(admin.slice(0, 15).map((n) => n!.id)).toEqual(ids.slice(0, 15));

    // alice: the public objects, her own key, e-mail and namespace; not admin-only objects nor the private group.
    const mine = (await ok(w.alice.token, q, { ids })).nodes as ({ __typename: string } | null)[];
    expect(mine.map((n) => n?.__typename ?? null)).toEqual([
      'Group',
      'Project',
      'User',
      'CiRunner',
      'CiJob',
      null,
      null,
      'SshKey',
      'GpgKey',
      'Email',
      null,
      null,
      null,
      null,
      'Namespace',
      null,
      null,
    ]);
    const anonymous = (await ok(undefined, q, { ids })).nodes as ({ __typename: string } | null)[];
    expect(anonymous.map((n) => n?.__typename ?? null)).toEqual([
      'Group',
      'Project',
      'User',
      null,
      'CiJob',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('node answers one object with its fields; a private group is null for an outsider', async () => {
    const outsider = await createUser(t, { username: 'outsider' });
    const secret = await createGroup(t, { path: 'hidden', visibility: 'private' });
    const q = `{ node(id: "gid://gitlab/Group/${secret.id}") { id ... on Group { fullPath visibility } } }`;
    expect((await ok(ROOT_TOKEN, q)).node).toEqual({
      id: `gid://gitlab/Group/${secret.id}`,
      fullPath: 'hidden',
      visibility: 'PRIVATE',
    });
    expect((await ok(outsider.token, q)).node).toBeNull();
  });

  it('batches per class: 1 and 20 groups cost the same statements', async () => {
    const groups: { id: number }[] = [];
    for (let i = 0; i < 20; i += 1) groups.push(await createGroup(t, { path: `g${i}`, visibility: 'public' }));
    const q =
      'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Group { fullPath } } a: node(id: "gid://gitlab/Group/1") { id } }';
    const count = async (n: number) =>
      (
        await t.countQueries(() =>
          api(t, ROOT_TOKEN)
            .graphql(q, { ids: groups.slice(0, n).map((g) => `gid://gitlab/Group/${g.id}`) })
            .expect(200),
        )
      ).count;
    expect(await count(20)).toBe(await count(1));
  });

  it('a node and an object link to the same group or project in one request read it once', async () => {
    const group = await createGroup(t, { path: 'shared-read', visibility: 'public' });
    const project = await createProject(t, { namespace: group, path: 'app', visibility: 'public' });
    const linkOnly = `{ project(fullPath: "shared-read/app") { group { fullPath } } }`;
    const both = `{ project(fullPath: "shared-read/app") { group { fullPath } } node(id: "gid://gitlab/Group/${group.id}") { id } }`;
    const count = async (q: string) => (await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q).expect(200))).count;
    await count(linkOnly);
    expect(await count(both)).toBe(await count(linkOnly));
    const nodeAndLink = `{ node(id: "gid://gitlab/Project/${project.id}") { id } projectNode: node(id: "gid://gitlab/Project/${project.id}") { ... on Project { path } } }`;
    expect((await ok(ROOT_TOKEN, nodeAndLink)).projectNode).toEqual({ path: 'app' });
  });

  it('refuses malformed ids, unknown classes and more than 100 ids (BAD_USER_INPUT), keeping the other root fields', async () => {
    for (const id of [
      '7',
      'gid://gitlab/Group',
      'gid://gitlab/Group/abc',
      'gid://gitlab/nope/1',
      'gid://gitlab/Nope/1',
    ]) {
      const body = await gql(ROOT_TOKEN, `query($id: ID!) { node(id: $id) { id } currentUser { username } }`, { id });
      expect(body.errors?.map((e) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
      expect(body.data).toEqual({ node: null, currentUser: { username: 'root' } });
    }
    const many = Array.from({ length: 101 }, (_, i) => `gid://gitlab/Group/${i + 1}`);
    const body = await gql(ROOT_TOKEN, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: many });
    expect(body.errors?.[0]).toMatchObject({
      message: 'ids: at most 100 ids per request (101 given)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('costs nodes(ids) by the number of ids', async () => {
    const cost = async (n: number) =>
      (
        await ok(ROOT_TOKEN, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } queryComplexity { score } }', {
          ids: Array.from({ length: n }, (_, i) => `gid://gitlab/Group/${i + 1}`),
        })
      ).queryComplexity.score as number;
    expect(await cost(50)).toBeGreaterThan(await cost(2));
  });
});

describe('global ids as arguments', () => {
  it('object-id arguments take the gid of their class, the database id, or (groups, projects) the full path', async () => {
    const w = await world(t);
    const d = await ok(
      ROOT_TOKEN,
      `{
      a: group(id: "gid://gitlab/Group/${w.group.id}") { fullPath }
      b: group(id: "${w.group.id}") { fullPath }
      c: group(id: "acme") { fullPath }
      d: project(id: "gid://gitlab/Project/${w.project.id}") { fullPath: pathWithNamespace }
      e: runner(id: "gid://gitlab/Ci::Runner/${w.runner.id}") { databaseId }
      f: runner(id: ${w.runner.id}) { databaseId }
      g: group(id: "gid://gitlab/Group/${w.group.id}") { projects { nodes { databaseId } } }
      h: user(id: "gid://gitlab/User/${w.alice.id}") { username }
    }`,
    );
    expect(d).toEqual({
      a: { fullPath: 'acme' },
      b: { fullPath: 'acme' },
      c: { fullPath: 'acme' },
      d: { fullPath: 'acme/api' },
      e: { databaseId: w.runner.id },
      f: { databaseId: w.runner.id },
      g: { projects: { nodes: [{ databaseId: w.project.id }] } },
      h: { username: 'alice' },
    });
    const del = await ok(
      ROOT_TOKEN,
      `mutation { broadcastMessageDelete(input: { id: "${w.made.bm.id}" }) { errors } }`,
    );
    expect(del.broadcastMessageDelete).toEqual({ errors: [] });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/broadcast_messages/${w.made.bm.databaseId}`)).status).toBe(404);
  });

  it('a gid of another class is BAD_USER_INPUT with a clear message', async () => {
    const g = await createGroup(t, { path: 'wrong', visibility: 'public' });
    const one = await gql(ROOT_TOKEN, `{ group(id: "gid://gitlab/Project/${g.id}") { id } }`);
    expect(one.errors?.[0]).toMatchObject({
      message: `"gid://gitlab/Project/${g.id}" is not a valid id here: expected gid://gitlab/Group/<id> or a database id`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const runner = await gql(ROOT_TOKEN, 'query($id: CiRunnerID!) { runner(id: $id) { id } }', {
      id: `gid://gitlab/Group/${g.id}`,
    });
    expect(runner.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(runner.errors?.[0].message).toContain('expected gid://gitlab/Ci::Runner/<id> or a database id');
    const literal = await gql(ROOT_TOKEN, '{ runner(id: "gid://gitlab/Ci::Runner/x") { id } }');
    expect(literal.errors?.[0].message).toContain('expected gid://gitlab/Ci::Runner/<id> or a database id');
  });
});

describe('group(fullPath) and project(fullPath)', () => {
  it('look up by full path; neither or both arguments is BAD_USER_INPUT; a missing one is null without an error', async () => {
    await createGroup(t, { path: '123', visibility: 'public' });
    expect((await ok(ROOT_TOKEN, '{ group(fullPath: "123") { fullPath } }')).group).toEqual({ fullPath: '123' });
    const neither = await gql(ROOT_TOKEN, '{ group { id } project { id } }');
    expect(neither.errors?.map((e) => [e.extensions.code, e.message])).toEqual([
      ['BAD_USER_INPUT', 'Give exactly one of id and fullPath'],
      ['BAD_USER_INPUT', 'Give exactly one of id and fullPath'],
    ]);
    const missing = await gql(ROOT_TOKEN, '{ project(fullPath: "no/such") { id } currentUser { username } }');
    expect(missing).toEqual({ data: { project: null, currentUser: { username: 'root' } } });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects/no%2Fsuch')).status).toBe(404);
  });
});

describe('REST keeps numeric ids', () => {
  it('ids, nested ids and foreign keys stay numbers; a gid in the path is a path nobody has (404)', async () => {
    const w = await world(t);
    const group = (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${w.group.id}`).expect(200)).body;
    expect(group.id).toBe(w.group.id);
    expect(group.projects[0].id).toBe(w.project.id);
    expect(group.projects[0].namespace.id).toBe(w.group.id);
    const project = (await api(t, ROOT_TOKEN).get('/api/v4/projects/acme%2Fapi').expect(200)).body;
    expect([project.id, project.namespace.id]).toEqual([w.project.id, w.group.id]);
    const jobs = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.runner.id}/jobs`).expect(200)).body;
    expect(jobs[0].id).toBe(w.job.id);
    expect(jobs[0].pipeline.id).toBe(w.job.pipelineId);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/users/${w.alice.id}`).expect(200)).body.id).toBe(w.alice.id);
    const gid = encodeURIComponent(`gid://gitlab/Group/${w.group.id}`);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${gid}`).expect(404)).body).toEqual({
      message: '404 Group Not Found',
    });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .get(`/api/v4/projects/${encodeURIComponent(`gid://gitlab/Project/${w.project.id}`)}`)
          .expect(404)
      ).body,
    ).toEqual({ message: '404 Project Not Found' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .get(`/api/v4/runners/${encodeURIComponent(`gid://gitlab/Ci::Runner/${w.runner.id}`)}`)
          .expect(400)
      ).body,
    ).toEqual({ error: 'id is invalid' });
    // GET /groups/:id takes no full_path (GraphQL's fullPath is no REST parameter).
    expect(
      (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${w.secret.id}?full_path=acme`).expect(200)).body.full_path,
    ).toBe('secret');
  });
});
