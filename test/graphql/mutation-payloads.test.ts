import crypto from 'node:crypto';
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  parse,
  type GraphQLInputObjectType,
  type OperationDefinitionNode,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
} from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { twinName } from '../../src/core/graphql/mutation-payloads';
import { operationCost } from '../../src/core/graphql/query-limits';
import { humanizeAttribute, payloadErrors } from '../../src/core/errors/payload-errors';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ParamError,
  SaveFailedError,
  ValidationError,
} from '../../src/core/errors/domain-errors';
import { MODULES } from '../../src/modules';
import { issue, type Issued } from '../support/certificates';
import { addGroupMember, createGroup, createProject, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createRunner } from '../runners/runner-factories';

/**
 * Mutations as GitLab's GraphQL API writes them: `<resource><Verb>(input: …Input!)`
 * answering `…Payload { <resource> errors clientMutationId }`, derived from every mutation
 * (core/graphql/mutation-payloads.ts). Assertions select fields other than `id` (its format is another
 * change's business).
 */
const t = useTestApp({ random: () => 35 });
const admin = () => api(t, ROOT_TOKEN);
const q = (s: string) => JSON.stringify(s);
const READ_API_REFUSED = 'The request requires higher privileges than provided by the access token.';
const ADMIN_REFUSED = '403 Forbidden';
const ANONYMOUS_REFUSED = '401 Unauthorized';

describe('mutation payload twins: the schema', () => {
  it('gives every mutation a payload twin with one input argument, errors: [String!]! and clientMutationId; the old name is deprecated towards it', async () => {
    const schema = await buildAppSchema(MODULES);
    // Declared without a twin (`@PayloadMutation({ twin: false })`): GitLab's payload form written out where
    // the rule cannot derive it (bulk payloads), and REST-only fields whose GitLab twin another mutation is.
    const withoutTwin = (f: GraphQLField<unknown, unknown>) =>
      (f.extensions?.payloadMutation as { twin?: boolean } | undefined)?.twin === false;
    const all = Object.values(schema.getMutationType()!.getFields());
    expect(
      all
        .filter(withoutTwin)
        .map((f) => [f.name, !!f.extensions?.internalOnly])
        .sort(),
    ).toEqual([
      ['bulkRunnerDelete', false],
      ['resetRunnersRegistrationToken', true],
      ['runnerBulkPause', false],
      ['runnersRegistrationTokenReset', false],
    ]);
    const fields = all.filter((f) => !withoutTwin(f) || !f.extensions?.internalOnly);
    const deprecated = fields.filter((f) => f.deprecationReason);
    const twins = fields.filter((f) => !f.deprecationReason && !withoutTwin(f));
    expect(deprecated.length).toBeGreaterThan(70);
    expect(twins.length).toBe(deprecated.length);
    const byName = new Map(fields.map((f) => [f.name, f]));
    for (const old of deprecated) {
      const name = /^Use (\w+)\.$/.exec(old.deprecationReason!)?.[1];
      expect([old.name, name && byName.has(name) && !byName.get(name)!.deprecationReason]).toEqual([old.name, true]);
    }
    const problems: string[] = [];
    // The payload form written out follows the same conventions, its payload fields apart.
    for (const f of fields.filter(withoutTwin)) {
      const payload = getNullableType(f.type);
      const input = f.args[0] && getNullableType(f.args[0].type);
      if (!isObjectType(payload) || payload.name !== `${f.name[0].toUpperCase()}${f.name.slice(1)}Payload`)
        problems.push(`${f.name}: payload type`);
      else if (String(payload.getFields().errors?.type) !== '[String!]!') problems.push(`${f.name}: errors`);
      if (f.args.length !== 1 || !isInputObjectType(input) || !input.getFields().clientMutationId)
        problems.push(`${f.name}: input`);
    }
    for (const f of twins as GraphQLField<unknown, unknown>[]) {
      const payload = getNullableType(f.type);
      if (!isObjectType(payload) || payload.name !== `${f.name[0].toUpperCase()}${f.name.slice(1)}Payload`)
        problems.push(`${f.name}: payload type`);
      if (f.args.length !== 1 || f.args[0].name !== 'input') problems.push(`${f.name}: one input argument`);
      const input = f.args[0] && getNullableType(f.args[0].type);
      if (!isInputObjectType(input) || String(input.getFields().clientMutationId?.type) !== 'String')
        problems.push(`${f.name}: input.clientMutationId`);
      if (!isObjectType(payload)) continue;
      const { errors, clientMutationId } = payload.getFields();
      if (String(errors?.type) !== '[String!]!') problems.push(`${f.name}: errors`);
      if (String(clientMutationId?.type) !== 'String') problems.push(`${f.name}: clientMutationId`);
      // The rest of the payload is at most the result field, nullable (null when the mutation failed).
      const rest = Object.values(payload.getFields()).filter(
        (x) => x.name !== 'errors' && x.name !== 'clientMutationId',
      );
      if (rest.length > 1 || rest.some((x) => isNonNullType(x.type))) problems.push(`${f.name}: result field`);
    }
    expect(problems).toEqual([]);
    // GitLab's own names where GitLab has the mutation.
    for (const name of [
      'groupUpdate',
      'runnerUpdate',
      'runnerDelete',
      'environmentCreate',
      'environmentUpdate',
      'environmentDelete',
      'environmentStop',
      'runnersRegistrationTokenReset',
      'runnerAssignToProject',
      'runnerUnassignFromProject',
      'groupMemberCreate',
      'projectMemberUpdate',
    ]) {
      expect([name, byName.has(name)]).toEqual([name, true]);
    }
    expect(isListType(getNullableType(byName.get('groupCreate')!.type))).toBe(false);
    expect(
      getNamedType(
        (
          getNullableType(byName.get('groupCreate')!.type) as never as {
            getFields(): Record<string, GraphQLField<unknown, unknown>>;
          }
        ).getFields().group.type,
      ).name,
    ).toBe('Group');
  });

  it('costs what its selection costs: errors count as many values as the input has fields', async () => {
    const schema = await buildAppSchema(MODULES);
    const cost = (text: string) => {
      const doc = parse(text);
      return operationCost(schema, doc, doc.definitions[0] as OperationDefinitionNode).cost;
    };
    const inputFields = Object.keys((schema.getType('GroupCreateInput') as GraphQLInputObjectType).getFields()).length;
    const old = cost('mutation { createGroup(input: { name: "a", path: "a" }) { name fullPath } }');
    const twin = cost(
      'mutation { groupCreate(input: { name: "a", path: "a" }) { group { name fullPath } errors clientMutationId } }',
    );
    expect(twin - old).toBe(1 + inputFields + 1);
  });

  it('names twins resource first, verb last (add → Create, remove → Delete)', () => {
    expect(
      [
        'createGroup',
        'updateGroup',
        'deleteGroup',
        'addGroupMember',
        'removeProjectMember',
        'stopEnvironment',
        'resetRunnersRegistrationToken',
        'setFeatureGate',
        'blockUser',
      ].map(twinName),
    ).toEqual([
      'groupCreate',
      'groupUpdate',
      'groupDelete',
      'groupMemberCreate',
      'projectMemberDelete',
      'environmentStop',
      'runnersRegistrationTokenReset',
      'featureGateSet',
      'userBlock',
    ]);
  });

  it('puts validation, conflicts and bad input in errors as full messages; not found and denials stay top-level', () => {
    expect(humanizeAttribute('forked_from_project_id')).toBe('Forked from project');
    expect(
      payloadErrors(
        new ValidationError({ path: ['has already been taken'], visibility_level: ['is invalid', 'is too open'] }),
      ),
    ).toEqual(['Path has already been taken', 'Visibility level is invalid', 'Visibility level is too open']);
    expect(
      payloadErrors(
        new SaveFailedError('Failed to save group', { name: ["can't be blank"], base: ['Whole record refused'] }),
      ),
    ).toEqual(["Name can't be blank", 'Whole record refused']);
    expect(payloadErrors(new ConflictError('Member already exists'))).toEqual(['Member already exists']);
    expect(payloadErrors(ParamError.missing('name'))).toEqual(['name is missing']);
    expect(payloadErrors(new NotFoundError('Group'))).toBeUndefined();
    expect(payloadErrors(new ForbiddenError())).toBeUndefined();
    expect(payloadErrors(new Error('boom'))).toBeUndefined();
  });
});

describe('mutation payload twins: through the same resolvers', () => {
  it('groups: create, update, delete with observable effects', async () => {
    const created = await admin().graphql(
      'mutation { groupCreate(input: { name: "Acme", path: "acme", description: "d" }) { group { fullPath name description } errors clientMutationId } }',
    );
    expect(created.body).toEqual({
      data: {
        groupCreate: {
          group: { fullPath: 'acme', name: 'Acme', description: 'd' },
          errors: [],
          clientMutationId: null,
        },
      },
    });
    const updated = await admin().graphql(
      'mutation { groupUpdate(input: { id: "acme", name: "Acme Inc", clientMutationId: "u-1" }) { group { name description } errors clientMutationId } }',
    );
    expect(updated.body.data.groupUpdate).toEqual({
      group: { name: 'Acme Inc', description: 'd' },
      errors: [],
      clientMutationId: 'u-1',
    });
    expect((await admin().get('/api/v4/groups/acme')).body).toMatchObject({ name: 'Acme Inc', description: 'd' });
    const deleted = await admin().graphql(
      'mutation { groupDelete(input: { id: "acme" }) { errors clientMutationId } }',
    );
    expect(deleted.body).toEqual({ data: { groupDelete: { errors: [], clientMutationId: null } } });
    expect((await admin().get('/api/v4/groups/acme')).status).toBe(404);
  });

  it('projects: create, update, delete', async () => {
    const g = await createGroup(t, { path: 'pg' });
    const created = await admin().graphql(
      `mutation { projectCreate(input: { name: "App", namespaceId: ${g.id} }) { project { name pathWithNamespace } errors } }`,
    );
    expect(created.body.data.projectCreate).toEqual({
      project: { name: 'App', pathWithNamespace: 'pg/app' },
      errors: [],
    });
    const updated = await admin().graphql(
      'mutation { projectUpdate(input: { id: "pg/app", description: "new" }) { project { description } errors } }',
    );
    expect(updated.body.data.projectUpdate).toEqual({ project: { description: 'new' }, errors: [] });
    expect((await admin().get(`/api/v4/projects/${encodeURIComponent('pg/app')}`)).body.description).toBe('new');
    expect(
      (await admin().graphql('mutation { projectDelete(input: { id: "pg/app" }) { errors } }')).body.data.projectDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/projects/${encodeURIComponent('pg/app')}`)).status).toBe(404);
  });

  it("runners: runnerUpdate and runnerDelete (GitLab's names)", async () => {
    const r = await createRunner(t, { shared: true, description: 'old' });
    const updated = await admin().graphql(
      `mutation { runnerUpdate(input: { id: ${r.id}, description: "docker", tagList: ["a", "b"] }) { runner { description tagList } errors } }`,
    );
    expect(updated.body.data.runnerUpdate).toEqual({
      runner: { description: 'docker', tagList: ['a', 'b'] },
      errors: [],
    });
    expect((await admin().get(`/api/v4/runners/${r.id}`)).body).toMatchObject({
      description: 'docker',
      tag_list: ['a', 'b'],
    });
    expect(
      (await admin().graphql(`mutation { runnerDelete(input: { id: ${r.id} }) { errors } }`)).body.data.runnerDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/runners/${r.id}`)).status).toBe(404);
  });

  it('broadcast messages: create, update, delete', async () => {
    const created = await admin().graphql(
      'mutation { broadcastMessageCreate(input: { message: "Maintenance", color: "#123" }) { broadcastMessage { message color } errors } }',
    );
    expect(created.body.data.broadcastMessageCreate).toEqual({
      broadcastMessage: { message: 'Maintenance', color: '#123' },
      errors: [],
    });
    const [{ id }] = (await admin().get('/api/v4/broadcast_messages')).body;
    const updated = await admin().graphql(
      `mutation { broadcastMessageUpdate(input: { id: ${id}, message: "Done" }) { broadcastMessage { message color } errors } }`,
    );
    expect(updated.body.data.broadcastMessageUpdate).toEqual({
      broadcastMessage: { message: 'Done', color: '#123' },
      errors: [],
    });
    expect((await admin().get(`/api/v4/broadcast_messages/${id}`)).body.message).toBe('Done');
    expect(
      (await admin().graphql(`mutation { broadcastMessageDelete(input: { id: ${id} }) { errors } }`)).body.data
        .broadcastMessageDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/broadcast_messages/${id}`)).status).toBe(404);
  });

  it('environments: create, update, stop, delete', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const created = await admin().graphql(
      `mutation { environmentCreate(input: { projectPath: "${p.fullPath}", name: "review/x", externalUrl: "http://r.test" }) { environment { name slug state } errors } }`,
    );
    expect(created.body.data.environmentCreate).toEqual({
      environment: { name: 'review/x', slug: 'review-x-999999', state: 'available' },
      errors: [],
    });
    const [{ id }] = (await admin().get(`/api/v4/projects/${p.id}/environments`)).body;
    const updated = await admin().graphql(
      `mutation { environmentUpdate(input: { id: ${id}, externalUrl: "http://s.test" }) { environment { name externalUrl } errors } }`,
    );
    expect(updated.body.data.environmentUpdate).toEqual({
      environment: { name: 'review/x', externalUrl: 'http://s.test' },
      errors: [],
    });
    const stopped = await admin().graphql(
      `mutation { environmentStop(input: { id: ${id} }) { environment { state } errors } }`,
    );
    expect(stopped.body.data.environmentStop).toEqual({ environment: { state: 'stopped' }, errors: [] });
    expect(
      (await admin().graphql(`mutation { environmentDelete(input: { id: ${id} }) { errors } }`)).body.data
        .environmentDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/projects/${p.id}/environments`)).body).toEqual([]);
  });

  describe('pages domains', () => {
    let ec: Issued;
    beforeAll(async () => {
      ec = await issue({ cn: 'ssl.domain.test', kind: 'ec' });
    });
    it('create, update, delete', async () => {
      const p = await createProject(t, { namespace: await createGroup(t) });
      const created = await admin().graphql(
        `mutation { pagesDomainCreate(input: { projectId: "${p.id}", domain: "g.test", certificate: ${q(ec.pem)}, key: ${q(ec.keyPem)} }) { pagesDomain { url certificate { subject } } errors } }`,
      );
      expect(created.body.data.pagesDomainCreate).toEqual({
        pagesDomain: { url: 'https://g.test', certificate: { subject: '/CN=ssl.domain.test' } },
        errors: [],
      });
      // An update with no certificate removes it (the old field's semantics, as REST).
      const cleared = await admin().graphql(
        `mutation { pagesDomainUpdate(input: { projectId: "${p.id}", domain: "g.test" }) { pagesDomain { url certificate { subject } } errors } }`,
      );
      expect(cleared.body.data.pagesDomainUpdate).toEqual({
        pagesDomain: { url: 'http://g.test', certificate: null },
        errors: [],
      });
      expect(
        (
          await admin().graphql(
            `mutation { pagesDomainDelete(input: { projectId: "${p.id}", domain: "g.test" }) { errors } }`,
          )
        ).body.data.pagesDomainDelete,
      ).toEqual({ errors: [] });
      expect((await admin().get(`/api/v4/projects/${p.id}/pages/domains`)).body).toEqual([]);
    });
  });

  it('members: create, update, delete (read back over REST)', async () => {
    const g = await createGroup(t, { path: 'mg' });
    const bob = await createUser(t, { username: 'bob' });
    // (only `errors` selected: the membership type's shape is another change's business)
    const created = await admin().graphql(
      `mutation { groupMemberCreate(input: { groupId: "mg", userId: ${bob.id}, accessLevel: 20 }) { errors } }`,
    );
    expect(created.body.data.groupMemberCreate).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/groups/${g.id}/members/${bob.id}`)).body.access_level).toBe(20);
    const updated = await admin().graphql(
      `mutation { groupMemberUpdate(input: { groupId: "mg", userId: ${bob.id}, accessLevel: 30 }) { errors } }`,
    );
    expect(updated.body.data.groupMemberUpdate).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/groups/${g.id}/members/${bob.id}`)).body.access_level).toBe(30);
    // Adding the same member again: the service's conflict is a payload error, not a failed request.
    const again = await admin().graphql(
      `mutation { groupMemberCreate(input: { groupId: "mg", userId: ${bob.id}, accessLevel: 20 }) { errors } }`,
    );
    expect(again.body).toEqual({ data: { groupMemberCreate: { errors: ['Member already exists'] } } });
    expect(
      (await admin().graphql(`mutation { groupMemberDelete(input: { groupId: "mg", userId: ${bob.id} }) { errors } }`))
        .body.data.groupMemberDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get(`/api/v4/groups/${g.id}/members/${bob.id}`)).status).toBe(404);
  });

  it('application settings and feature gates', async () => {
    const settings = await admin().graphql(
      'mutation { applicationSettingsUpdate(input: { defaultProjectsLimit: 7 }) { applicationSettings { defaultProjectsLimit } errors } }',
    );
    expect(settings.body.data.applicationSettingsUpdate).toEqual({
      applicationSettings: { defaultProjectsLimit: 7 },
      errors: [],
    });
    expect((await admin().get('/api/v4/application/settings')).body.default_projects_limit).toBe(7);
    const gate = await admin().graphql(
      'mutation { featureGateSet(input: { name: "gql_flag", value: "true" }) { feature { name } errors } }',
    );
    expect(gate.body.data.featureGateSet).toEqual({ feature: { name: 'gql_flag' }, errors: [] });
    expect(
      (await admin().get('/api/v4/features')).body.map((f: { name: string; state: string }) => [f.name, f.state]),
    ).toEqual([['gql_flag', 'on']]);
    expect(
      (await admin().graphql('mutation { featureDelete(input: { name: "gql_flag" }) { errors } }')).body.data
        .featureDelete,
    ).toEqual({ errors: [] });
    expect((await admin().get('/api/v4/features')).body).toEqual([]);
  });

  it('bad input of a REST-shaped rule (a parameter error) is a payload error too', async () => {
    const res = await admin().graphql(
      'mutation { featureGateSet(input: { name: "x", value: "101" }) { feature { name } errors } }',
    );
    expect(res.body).toEqual({
      data: {
        featureGateSet: { feature: null, errors: ['value must be true, false or a percentage between 0 and 100'] },
      },
    });
  });
});

describe('mutation payload twins: errors', () => {
  it("a validation failure lands in errors (GitLab's full message) with data present and no top-level error", async () => {
    await createGroup(t, { path: 'taken' });
    const res = await admin().graphql(
      'mutation { groupCreate(input: { name: "Other", path: "taken", clientMutationId: "c-9" }) { group { fullPath } errors clientMutationId } }',
    );
    expect(res.body).toEqual({
      data: { groupCreate: { group: null, errors: ['Path has already been taken'], clientMutationId: 'c-9' } },
    });
  });

  it('of two mutations in one request, the first failing validation, both payloads are present and the second is committed', async () => {
    const res = await admin().graphql(`mutation {
      a: broadcastMessageCreate(input: { message: "x", color: "red", clientMutationId: "a" }) { broadcastMessage { message } errors clientMutationId }
      b: broadcastMessageCreate(input: { message: "ok", clientMutationId: "b" }) { broadcastMessage { message } errors clientMutationId }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.a).toEqual({
      broadcastMessage: null,
      errors: [expect.stringMatching(/^Color .*valid color code/)],
      clientMutationId: 'a',
    });
    expect(res.body.data.b).toEqual({ broadcastMessage: { message: 'ok' }, errors: [], clientMutationId: 'b' });
    expect((await admin().get('/api/v4/broadcast_messages')).body.map((m: { message: string }) => m.message)).toEqual([
      'ok',
    ]);
  });

  it('echoes clientMutationId from variables too', async () => {
    const res = await admin().graphql(
      'mutation($input: BroadcastMessageCreateInput!) { broadcastMessageCreate(input: $input) { clientMutationId errors } }',
      { input: { message: 'v', clientMutationId: 'from-vars' } },
    );
    expect(res.body.data.broadcastMessageCreate).toEqual({ clientMutationId: 'from-vars', errors: [] });
  });

  it('not found is a top-level error with the field null, as through the old name (REST, which runs it, answers 404)', async () => {
    const twin = await admin().graphql(
      'mutation { groupUpdate(input: { id: "no/such", name: "x" }) { group { name } errors } }',
    );
    const rest = await admin().put('/api/v4/groups/no%2Fsuch').send({ name: 'x' });
    expect(rest.status).toBe(404);
    expect(twin.body.data).toEqual({ groupUpdate: null });
    expect(twin.body.errors).toEqual([
      expect.objectContaining({
        message: rest.body.message,
        path: ['groupUpdate'],
        extensions: { code: 'NOT_FOUND' },
      }),
    ]);
    expect(twin.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('denies an unprivileged user, an anonymous caller and a read_api token exactly as the old name does, and writes nothing', async () => {
    const user = await createUser(t);
    const reader = await createUser(t, { admin: true });
    const readApi = `scoped-${crypto.randomBytes(10).toString('hex')}`;
    await queryOne(
      t,
      `insert into personal_access_tokens (user_id, name, token_digest, scopes) values (?, 'scoped', ?, '{read_api}')`,
      [reader.id, crypto.createHash('sha256').update(readApi).digest('hex')],
    );
    // The old names are internal (REST runs them); their refusals, which the twins repeat, and REST's status for each.
    const create = 'mutation { broadcastMessageCreate(input: { message: "x" }) { errors } }';
    const cases: [string | undefined, string, [string, string], () => Promise<{ status: number }>][] = [
      [
        readApi,
        create,
        [READ_API_REFUSED, 'FORBIDDEN'],
        () => api(t, readApi).post('/api/v4/broadcast_messages').send({ message: 'x' }),
      ],
      [
        user.token,
        create,
        [ADMIN_REFUSED, 'FORBIDDEN'],
        () => api(t, user.token).post('/api/v4/broadcast_messages').send({ message: 'x' }),
      ],
      [
        undefined,
        create,
        [ANONYMOUS_REFUSED, 'UNAUTHENTICATED'],
        () => api(t).post('/api/v4/broadcast_messages').send({ message: 'x' }),
      ],
      [
        user.token,
        'mutation { runnersRegistrationTokenReset(input: { type: INSTANCE_TYPE }) { errors } }',
        [ADMIN_REFUSED, 'FORBIDDEN'],
        () => api(t, user.token).post('/api/v4/runners/reset_registration_token'),
      ],
    ];
    for (const [token, twin, [message, code], rest] of cases) {
      const a = await api(t, token).graphql(twin);
      expect(Object.values(a.body.data)).toEqual([null]);
      expect(a.body.errors.map((e: { message: string; extensions: unknown }) => [e.message, e.extensions])).toEqual([
        [message, { code }],
      ]);
      expect((await rest()).status).toBe(code === 'UNAUTHENTICATED' ? 401 : 403);
    }
    // Object-level rules too: a Guest of the group may not add members.
    const g = await createGroup(t, { path: 'og' });
    await addGroupMember(t, g, user, 10);
    const twin = await api(t, user.token).graphql(
      `mutation { groupMemberCreate(input: { groupId: "og", userId: ${user.id}, accessLevel: 50 }) { errors } }`,
    );
    const rest = await api(t, user.token)
      .post('/api/v4/groups/og/members')
      .send({ user_id: user.id, access_level: 50 });
    expect(rest.status).toBe(403);
    expect(twin.body.data).toEqual({ groupMemberCreate: null });
    expect([twin.body.errors[0].message, twin.body.errors[0].extensions]).toEqual([
      rest.body.message,
      { code: 'FORBIDDEN' },
    ]);
    expect((await admin().get('/api/v4/broadcast_messages')).body).toEqual([]);
  });

  it('records the same audit event as the old name (which REST runs)', async () => {
    const g = await createGroup(t, { path: 'audited', name: 'A' });
    await admin().graphql('mutation { groupUpdate(input: { id: "audited", name: "B" }) { errors } }');
    await admin().put(`/api/v4/groups/${g.id}`).send({ name: 'C' }).expect(200);
    const events = (await admin().get(`/api/v4/groups/${g.id}/audit_events`)).body as {
      details: Record<string, unknown>;
    }[];
    // Audit events outlive the per-test table reset and group ids restart: keep this test's changes.
    expect(
      events
        .filter((e) => e.details.change === 'name' && ['A', 'B'].includes(e.details.from as string))
        .map((e) => [e.details.from, e.details.to]),
    ).toEqual([
      ['B', 'C'],
      ['A', 'B'],
    ]);
  });
});
