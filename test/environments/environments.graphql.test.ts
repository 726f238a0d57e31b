import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp({ random: () => 35 });
const FIELDS = 'id: databaseId name slug externalUrl state project { id: databaseId pathWithNamespace }';

describe('GraphQL environments', () => {
  it('Project.environments and node(id) show what REST shows (parity); null for who may not list them', async () => {
    const p = await createProject(t, { namespace: await createGroup(t, { path: 'gq' }), path: 'app' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments`)
      .send({ name: 'Production', external_url: 'https://p.test' })
      .expect(201);
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body[0];
    const gql = await api(t, ROOT_TOKEN).graphql(
      `query($p: ID!) { project(fullPath: $p) { environments { count nodes { ${FIELDS} } } } }`,
      { p: 'gq/app' },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.project.environments.count).toBe(1);
    const node = gql.body.data.project.environments.nodes[0];
    expect({
      id: node.id,
      name: node.name,
      slug: node.slug,
      external_url: node.externalUrl,
      state: node.state,
      project: { id: node.project.id, path_with_namespace: node.project.pathWithNamespace },
    }).toEqual({
      id: rest.id,
      name: rest.name,
      slug: 'production-999999',
      external_url: rest.external_url,
      state: rest.state,
      project: { id: rest.project.id, path_with_namespace: rest.project.path_with_namespace },
    });
    const gid = `gid://gitlab/Environment/${rest.id}`;
    const one = await api(t, ROOT_TOKEN).graphql(`{ node(id: "${gid}") { ... on Environment { ${FIELDS} } } }`);
    expect(one.body.data.node).toEqual(node);
    // A Guest may see the project but not list its environments (Reporter or above); a stranger sees neither.
    const guest = await createUser(t);
    await addProjectMember(t, p, guest, 10);
    const stranger = await createUser(t);
    const list = `{ project(fullPath: "gq/app") { path environments { count } } node(id: "${gid}") { id } }`;
    expect((await api(t, guest.token).graphql(list)).body).toEqual({
      data: { project: { path: 'app', environments: null }, node: null },
    });
    expect((await api(t, stranger.token).graphql(list)).body).toEqual({ data: { project: null, node: null } });
    // The REST-shaped root fields are not in the public view.
    const root = await api(t, ROOT_TOKEN).graphql(`{ projectEnvironments(projectId: "${p.id}") { count } }`);
    expect(root.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('create, update, stop and delete mutations use the same service', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const created = await api(t, ROOT_TOKEN).graphql(
      `mutation { environmentCreate(input: { projectPath: "${p.fullPath}", name: "review/x", externalUrl: "http://r.test", description: "Review" }) { environment { id slug state description } errors } }`,
    );
    const { id, slug } = created.body.data.environmentCreate.environment;
    expect(created.body.data.environmentCreate).toEqual({
      environment: { id, slug: 'review-x-999999', state: 'available', description: 'Review' },
      errors: [],
    });
    // GitLab's environmentUpdate names the environment by its global id and renames nothing (REST's PUT does).
    const updated = await api(t, ROOT_TOKEN).graphql(
      `mutation { environmentUpdate(input: { id: "${id}", externalUrl: "", description: "" }) { environment { name slug externalUrl description } errors } }`,
    );
    expect(updated.body.data.environmentUpdate).toEqual({
      environment: { name: 'review/x', slug, externalUrl: null, description: '' },
      errors: [],
    });
    await api(t, ROOT_TOKEN)
      .put(`/api/v4/projects/${p.id}/environments/${id.split('/').pop()}`)
      .send({ name: 'renamed' })
      .expect(200);
    const stopped = await api(t, ROOT_TOKEN).graphql(
      `mutation { environmentStop(input: { id: "${id}", force: true }) { environment { state } errors } }`,
    );
    expect(stopped.body.data.environmentStop).toEqual({ environment: { state: 'stopped' }, errors: [] });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body[0]).toMatchObject({
      name: 'renamed',
      state: 'stopped',
    });
    expect(
      (await api(t, ROOT_TOKEN).graphql(`mutation { environmentDelete(input: { id: "${id}" }) { errors } }`)).body,
    ).toEqual({ data: { environmentDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body).toEqual([]);
  });

  it('errors carry extensions.code; a missing environment is null; validation messages go to errors', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const reporter = await createUser(t);
    await addProjectMember(t, p, reporter, 20);
    const code = async (token: string | undefined, q: string) =>
      (await api(t, token).graphql(q)).body.errors?.[0]?.extensions?.code;
    expect((await api(t).graphql(`{ project(id: "${p.id}") { environments { count } } }`)).body).toEqual({
      data: { project: null },
    });
    expect(
      await code(
        reporter.token,
        `mutation { environmentCreate(input: { projectPath: "${p.fullPath}", name: "x" }) { environment { id } } }`,
      ),
    ).toBe('FORBIDDEN');
    expect((await api(t, ROOT_TOKEN).graphql('{ node(id: "gid://gitlab/Environment/4242") { id } }')).body).toEqual({
      data: { node: null },
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments/4242`)).status).toBe(404);
    const bad = await api(t, ROOT_TOKEN).graphql(
      `mutation { environmentCreate(input: { projectPath: "${p.fullPath}", name: "bad!" }) { environment { id } errors } }`,
    );
    expect(bad.body).toEqual({
      data: {
        environmentCreate: {
          environment: null,
          errors: ["Name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces"],
        },
      },
    });
  });

  it("environmentStop and environmentDelete take GitLab's input (the environment's global id), with the REST routes' roles", async () => {
    const p = await createProject(t, { namespace: await createGroup(t, { path: 'envs' }), path: 'web' });
    const developer = await createUser(t);
    const reporter = await createUser(t);
    await addProjectMember(t, p, developer, 30);
    await addProjectMember(t, p, reporter, 20);
    const env = (
      await api(t, ROOT_TOKEN).post(`/api/v4/projects/${p.id}/environments`).send({ name: 'staging' }).expect(201)
    ).body;
    const gid = `gid://gitlab/Environment/${env.id}`;
    const run = async (token: string, q: string) => (await api(t, token).graphql(q)).body;
    // REST's spelling is not GitLab's input: refused before anything runs.
    const restSpelling = await run(
      ROOT_TOKEN,
      `mutation { environmentStop(input: { projectId: "${p.id}", environmentId: ${env.id} }) { errors } }`,
    );
    expect(restSpelling.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // A Reporter may not stop it (Developer or above), a Developer may; a Developer may not delete it (Maintainer).
    const stop = `mutation { environmentStop(input: { id: "${gid}" }) { environment { id state } errors } }`;
    expect((await run(reporter.token, stop)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await run(developer.token, stop)).data.environmentStop).toEqual({
      environment: { id: gid, state: 'stopped' },
      errors: [],
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments/${env.id}`)).body.state).toBe(
      'stopped',
    );
    const del = `mutation { environmentDelete(input: { id: "${gid}" }) { errors } }`;
    expect((await run(developer.token, del)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await run(ROOT_TOKEN, del)).data.environmentDelete).toEqual({ errors: [] });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments/${env.id}`)).status).toBe(404);
    // An environment that does not exist (any more) is NOT_FOUND.
    expect((await run(ROOT_TOKEN, del)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
