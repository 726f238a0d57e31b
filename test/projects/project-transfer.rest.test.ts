import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
} from '../support/factories';
import { PERSONAL_PROJECT_KEYS, PROJECT_KEYS_WITH_TOKEN, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { captureSystemEvents } from '../support/system-events';

const t = useTestApp();

const FAILED = (msg: string) => ({ message: `Failed to transfer project {:new_namespace=>["${msg}"]}` });

describe('PUT /projects/:id/transfer', () => {
  it('moves a personal project into a group the owner may create projects in: paths follow, visibility is capped, events recorded', async () => {
    const ann = await createUser(t, { username: 'ann' });
    const team = await createGroup(t, { path: 'team', visibility: 'internal' });
    const sub = await createGroup(t, { path: 'sub', parent: team, visibility: 'internal' });
    await addGroupMember(t, team, ann, 40);
    const p = await createProject(t, {
      namespace: { id: ann.namespaceId, username: 'ann' },
      path: 'tool',
      visibility: 'public',
    });
    const events = await captureSystemEvents(t);

    const res = await api(t, ann.token).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'team/sub' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(PROJECT_KEYS_WITH_TOKEN);
    expect(res.body).toMatchObject({
      id: p.id,
      path_with_namespace: 'team/sub/tool',
      name_with_namespace: expect.stringContaining('/ ') as unknown,
      visibility: 'internal',
      namespace: expect.objectContaining({ id: sub.id, full_path: 'team/sub', kind: 'group' }) as unknown,
    });
    expect((await api(t, ann.token).get('/api/v4/projects/team%2Fsub%2Ftool')).body.id).toBe(p.id);
    expect((await api(t, ann.token).get('/api/v4/projects/ann%2Ftool')).status).toBe(404);

    const [hook] = await events();
    expect(hook.event_name).toBe('project_transfer');
    expect(hook.payload).toMatchObject({
      event_name: 'project_transfer',
      path_with_namespace: 'team/sub/tool',
      old_path_with_namespace: 'ann/tool',
      project_visibility: 'internal',
    });
    const audit = await queryOne<{ details: Record<string, unknown> }>(
      t,
      "select details from audit_events where entity_type = 'Project' and entity_id = ? order by id desc limit 1",
      [p.id],
    );
    expect(audit?.details).toMatchObject({ change: 'namespace', from: 'ann', to: 'team/sub' });
  });

  it('lets an administrator move a group project into a personal namespace by id', async () => {
    const bob = await createUser(t, { username: 'bob' });
    const g = await createGroup(t, { path: 'g' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const res = await api(t, ROOT_TOKEN).put(`/api/v4/projects/g%2Fapp/transfer`).send({ namespace: bob.namespaceId });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual([...PERSONAL_PROJECT_KEYS, 'runners_token'].sort());
    expect(res.body.path_with_namespace).toBe('bob/app');
    expect(res.body.owner.username).toBe('bob');
    // The private project is now its new namespace owner's.
    expect((await api(t, bob.token).get(`/api/v4/projects/${p.id}`)).status).toBe(200);
  });

  it('answers 401, 404 for a project the caller may not see, 403 below Owner', async () => {
    const g = await createGroup(t, { path: 'g' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const stranger = await createUser(t);
    const master = await createUser(t);
    await addProjectMember(t, p, master, 40);
    expect((await api(t).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'g' })).status).toBe(401);
    const hidden = await api(t, stranger.token).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'g' });
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const below = await api(t, master.token).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'g' });
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it("answers 400 for a missing namespace, 404 for one the caller may not see, and GitLab's refusals", async () => {
    const ann = await createUser(t, { username: 'ann' });
    const p = await createProject(t, {
      namespace: { id: ann.namespaceId, username: 'ann' },
      path: 'tool',
      name: 'Tool',
    });
    const secret = await createGroup(t, { path: 'secret' });
    const dev = await createGroup(t, { path: 'dev', visibility: 'public' });
    await addGroupMember(t, dev, ann, 30);
    const mine = await createGroup(t, { path: 'mine' });
    await addGroupMember(t, mine, ann, 50);
    await createProject(t, { namespace: mine, path: 'other', name: 'Tool' });
    const put = (body: object) => api(t, ann.token).put(`/api/v4/projects/${p.id}/transfer`).send(body);

    expect((await put({})).body).toEqual({ error: 'namespace is missing' });
    expect((await put({ namespace: secret.id })).body).toEqual({ message: '404 Namespace Not Found' });
    expect((await put({ namespace: 'nowhere' })).status).toBe(404);
    const same = await put({ namespace: 'ann' });
    expect([same.status, same.body]).toEqual([400, FAILED('Project is already in this namespace.')]);
    expect((await put({ namespace: 'dev' })).body).toEqual(
      FAILED("You don't have permission to transfer projects into that namespace."),
    );
    expect((await put({ namespace: 'mine' })).body).toEqual(
      FAILED('Project with same name or path in target namespace already exists'),
    );
    // Nothing moved.
    expect((await api(t, ann.token).get(`/api/v4/projects/${p.id}`)).body.path_with_namespace).toBe('ann/tool');
  });

  it("answers 404 for another user's personal namespace to a non-administrator", async () => {
    const ann = await createUser(t, { username: 'ann' });
    const bob = await createUser(t, { username: 'bob' });
    const p = await createProject(t, { namespace: { id: ann.namespaceId, username: 'ann' }, path: 'tool' });
    // Another user's personal namespace is not the caller's to see (GitLab's find_namespace!).
    const res = await api(t, ann.token).put(`/api/v4/projects/${p.id}/transfer`).send({ namespace: 'bob' });
    expect([res.status, res.body]).toEqual([404, { message: '404 Namespace Not Found' }]);
    expect(bob.id).toBeGreaterThan(0);
  });
});

describe('projectTransfer (GraphQL)', () => {
  it("moves the project and reports GitLab's refusals in errors", async () => {
    const g = await createGroup(t, { path: 'g' });
    const h = await createGroup(t, { path: 'h' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const q = `mutation($id: ID!, $ns: ID!) { projectTransfer(input: { id: $id, namespaceId: $ns }) { project { pathWithNamespace } errors } }`;
    const run = (ns: string) =>
      api(t, ROOT_TOKEN)
        .post('/graphql')
        .send({ query: q, variables: { id: `gid://gitlab/Project/${p.id}`, ns } });
    const ok = await run(`gid://gitlab/Group/${h.id}`);
    expect(ok.body.data.projectTransfer).toEqual({ project: { pathWithNamespace: 'h/app' }, errors: [] });
    const again = await run('h');
    expect(again.body.data.projectTransfer).toEqual({
      project: null,
      // The service's refusal as data, its attribute humanized (docs/graphql.md, "Mutations (payloads)").
      errors: ['New namespace Project is already in this namespace.'],
    });
  });
});
