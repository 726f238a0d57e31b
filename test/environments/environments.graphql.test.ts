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
      `query($p: ID!) { projectEnvironments(projectId: $p) { count nodes { ${FIELDS} } } }`,
      { p: 'gq/app' },
    );
    expect(gql.body.data.projectEnvironments.count).toBe(1);
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
      `mutation { environmentStop(input: { projectId: "${p.id}", environmentId: "${id}" }) { environment { state } errors } }`,
    );
    expect(stopped.body.data.environmentStop).toEqual({ environment: { state: 'stopped' }, errors: [] });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body[0]).toMatchObject({
      name: 'renamed',
      state: 'stopped',
    });
    expect(
      (
        await api(t, ROOT_TOKEN).graphql(
          `mutation { environmentDelete(input: { projectId: "${p.id}", environmentId: "${id}" }) { errors } }`,
        )
      ).body,
    ).toEqual({ data: { environmentDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/environments`)).body).toEqual([]);
  });

  it('errors carry extensions.code; a missing environment is null; validation messages go to errors', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const reporter = await createUser(t);
    await addProjectMember(t, p, reporter, 20);
    const code = async (token: string | undefined, q: string) =>
      (await api(t, token).graphql(q)).body.errors?.[0]?.extensions?.code;
    expect(await code(undefined, `{ projectEnvironments(projectId: "${p.id}") { count } }`)).toBe('UNAUTHENTICATED');
    expect(
      await code(
        reporter.token,
        `mutation { environmentCreate(input: { projectPath: "${p.fullPath}", name: "x" }) { environment { id } } }`,
      ),
    ).toBe('FORBIDDEN');
    expect(
      (await api(t, ROOT_TOKEN).graphql(`{ environment(projectId: "${p.id}", environmentId: 4242) { id } }`)).body,
    ).toEqual({ data: { environment: null } });
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
});
