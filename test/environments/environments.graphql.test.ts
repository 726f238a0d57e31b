import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp({ random: () => 35 });
const FIELDS = 'id: databaseId name slug externalUrl state project { id: databaseId pathWithNamespace }';

describe('GraphQL environments', () => {
  it('projectEnvironments and environment show what REST shows (parity)', async () => {
    const p = await createProject(t, { namespace: await createGroup(t, { path: 'gq' }), path: 'app' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments`)
      .send({ name: 'Production', external_url: 'https://p.test' })
      .expect(201);
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body[0];
    const gql = await api(t, ROOT_TOKEN).graphql(
      `query($p: ID!) { projectEnvironments(projectId: $p) { total nodes { ${FIELDS} } } }`,
      { p: 'gq/app' },
    );
    expect(gql.body.data.projectEnvironments.total).toBe(1);
    const node = gql.body.data.projectEnvironments.nodes[0];
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
    const one = await api(t, ROOT_TOKEN).graphql(
      `{ environment(projectId: "${p.id}", environmentId: ${rest.id}) { ${FIELDS} } }`,
    );
    expect(one.body.data.environment).toEqual(node);
  });

  it('create, update, stop and delete mutations use the same service', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const created = await api(t, ROOT_TOKEN).graphql(
      `mutation { createEnvironment(projectId: "${p.id}", input: { name: "review/x", externalUrl: "http://r.test" }) { id slug state } }`,
    );
    const { id, slug } = created.body.data.createEnvironment;
    expect(created.body.data.createEnvironment).toEqual({ id, slug: 'review-x-999999', state: 'available' });
    const updated = await api(t, ROOT_TOKEN).graphql(
      `mutation { updateEnvironment(projectId: "${p.id}", environmentId: "${id}", input: { name: "renamed", externalUrl: "" }) { name slug externalUrl } }`,
    );
    expect(updated.body.data.updateEnvironment).toEqual({ name: 'renamed', slug, externalUrl: null });
    const stopped = await api(t, ROOT_TOKEN).graphql(
      `mutation { stopEnvironment(projectId: "${p.id}", environmentId: "${id}") { state } }`,
    );
    expect(stopped.body.data.stopEnvironment.state).toBe('stopped');
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body[0]).toMatchObject({
      name: 'renamed',
      state: 'stopped',
    });
    expect(
      (await api(t, ROOT_TOKEN).graphql(`mutation { deleteEnvironment(projectId: "${p.id}", environmentId: "${id}") }`))
        .body.data.deleteEnvironment,
    ).toBe(true);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body).toEqual([]);
  });

  it('errors carry extensions.code', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const reporter = await createUser(t);
    await addProjectMember(t, p, reporter, 20);
    const code = async (token: string | undefined, q: string) =>
      (await api(t, token).graphql(q)).body.errors?.[0]?.extensions?.code;
    expect(await code(undefined, `{ projectEnvironments(projectId: "${p.id}") { total } }`)).toBe('UNAUTHENTICATED');
    expect(
      await code(reporter.token, `mutation { createEnvironment(projectId: "${p.id}", input: { name: "x" }) { id } }`),
    ).toBe('FORBIDDEN');
    expect(await code(ROOT_TOKEN, `{ environment(projectId: "${p.id}", environmentId: 4242) { id } }`)).toBe(
      'NOT_FOUND',
    );
    const bad = await api(t, ROOT_TOKEN).graphql(
      `mutation { createEnvironment(projectId: "${p.id}", input: { name: "bad!" }) { id } }`,
    );
    expect(bad.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      fields: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces"] },
    });
  });
});
