import { getNamedType, isObjectType } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { createRunner } from '../runners/runner-factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

/**
 * GitLab's GraphQL conventions where the public API used to answer otherwise (docs/graphql.md): each
 * case is a query a GitLab client sends, answered as GitLab answers it.
 */
describe('GitLab GraphQL conventions', () => {
  it('runnerUpdate(input: {paused}) pauses and resumes a runner; REST keeps active', async () => {
    const r = await createRunner(t, { description: 'fleet-1' });
    const pause = await api(t, ROOT_TOKEN).graphql(
      `mutation { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/${r.id}", paused: true }) { runner { paused active } errors } }`,
    );
    expect(pause.body).toEqual({ data: { runnerUpdate: { runner: { paused: true, active: false }, errors: [] } } });
    const rest = await api(t, ROOT_TOKEN).get(`/api/v4/runners/${r.id}`).expect(200);
    expect(rest.body.active).toBe(false);
    const resume = await api(t, ROOT_TOKEN).graphql(
      `mutation { runnerUpdate(input: { id: ${r.id}, paused: false }) { runner { paused } } }`,
    );
    expect(resume.body.data.runnerUpdate.runner).toEqual({ paused: false });
    // REST keeps 10.3's `active` (and takes no `paused`).
    await api(t, ROOT_TOKEN).put(`/api/v4/runners/${r.id}`).send({ active: false }).expect(200);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${r.id}`)).body.active).toBe(false);
  });

  it('groups: every group the caller can see by default (GitLab GroupsFinder); REST keeps the own-groups default', async () => {
    const member = await createUser(t, { username: 'member' });
    const mine = await createGroup(t, { path: 'mine', visibility: 'private' });
    await addGroupMember(t, mine, member, 30);
    await createGroup(t, { path: 'open', visibility: 'public' });
    await createGroup(t, { path: 'hidden', visibility: 'private' });
    const gql = await api(t, member.token).graphql('{ groups { count nodes { fullPath } } }');
    const paths = gql.body.data.groups.nodes.map((n: { fullPath: string }) => n.fullPath).sort();
    expect(paths).toEqual(['mine', 'open']);
    expect(gql.body.data.groups.count).toBe(2);
    const own = await api(t, member.token).graphql('{ groups(allAvailable: false) { nodes { fullPath } } }');
    expect(own.body.data.groups.nodes).toEqual([{ fullPath: 'mine' }]);
    const rest = await api(t, member.token).get('/api/v4/groups').expect(200);
    expect(rest.body.map((g: { full_path: string }) => g.full_path)).toEqual(['mine']);
  });

  it("accepts GitLab's @gl_introduced on fields and inline fragments; users(usernames), User.webPath and active, Project.fullPath", async () => {
    const g = await createGroup(t, { path: 'grp' });
    await createUser(t, { username: 'Ann' });
    await createUser(t, { username: 'ben' });
    await createUser(t, { username: 'cid' });
    await api(t, ROOT_TOKEN).post('/api/v4/projects').send({ name: 'app', namespace_id: g.id }).expect(201);
    const res = await api(t, ROOT_TOKEN).graphql(`{
      users(usernames: ["ann", "BEN"]) { nodes { username webPath active webUrl @gl_introduced(version: "99.0.0") } }
      project(fullPath: "grp/app") { fullPath ... on Project @gl_introduced(version: "18.1.0") { pathWithNamespace } }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(
      res.body.data.users.nodes.map((u: { username: string; webPath: string; active: boolean }) => [
        u.username,
        u.webPath,
        u.active,
      ]),
    ).toEqual([
      ['Ann', '/Ann', true],
      ['ben', '/ben', true],
    ]);
    expect(res.body.data.project).toEqual({ fullPath: 'grp/app', pathWithNamespace: 'grp/app' });
    const many = await api(t, ROOT_TOKEN).graphql(
      `{ users(usernames: [${Array.from({ length: 101 }, (_x, i) => `"u${i}"`).join(',')}]) { count } }`,
    );
    expect(many.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("GitLab's admin list fields: User.groupCount and projectCount (self and admins), Project.topics, projects(active)", async () => {
    const g = await createGroup(t, { path: 'grp' });
    const ann = await createUser(t, { username: 'ann' });
    const ben = await createUser(t, { username: 'ben' });
    await addGroupMember(t, g, ann, 30);
    const live = await api(t, ROOT_TOKEN)
      .post('/api/v4/projects')
      .send({ name: 'live', namespace_id: g.id, tag_list: 'api, web' })
      .expect(201);
    const old = await api(t, ROOT_TOKEN).post('/api/v4/projects').send({ name: 'old', namespace_id: g.id }).expect(201);
    await api(t, ROOT_TOKEN).post(`/api/v4/projects/${old.body.id}/archive`).expect(201);
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${live.body.id}/members`)
      .send({ user_id: ann.id, access_level: 30 });
    const counts = `{ users(usernames: ["ann", "ben"]) { nodes { username groupCount projectCount } } }`;
    expect((await api(t, ROOT_TOKEN).graphql(counts)).body.data.users.nodes).toEqual([
      { username: 'ann', groupCount: 1, projectCount: 1 },
      { username: 'ben', groupCount: 0, projectCount: 0 },
    ]);
    // Others' counts are the user's and the administrators' only.
    expect((await api(t, ben.token).graphql(counts)).body.data.users.nodes).toEqual([
      { username: 'ann', groupCount: null, projectCount: null },
      { username: 'ben', groupCount: 0, projectCount: 0 },
    ]);
    const rest = await api(t, ROOT_TOKEN).get(`/api/v4/users/${ann.id}/associations_count`).expect(200);
    expect([rest.body.groups_count, rest.body.projects_count]).toEqual([1, 1]);
    const projects = await api(t, ROOT_TOKEN).graphql(`{
      active: projects(active: true) { nodes { name topics } }
      inactive: projects(active: false) { nodes { name } }
    }`);
    expect(projects.body.data.active.nodes).toEqual([{ name: 'live', topics: ['api', 'web'] }]);
    expect(projects.body.data.inactive.nodes).toEqual([{ name: 'old' }]);
  });

  it('no object other than a Node has an `id`: a change or payload never takes over its object in a normalized cache', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    const offenders = Object.values(schema.getTypeMap())
      .filter((type) => isObjectType(type) && !type.name.startsWith('__'))
      .filter((type) => {
        const obj = type as import('graphql').GraphQLObjectType;
        const id = obj.getFields().id;
        return id && getNamedType(id.type).name === 'ID' && !obj.getInterfaces().some((i) => i.name === 'Node');
      })
      .map((type) => type.name);
    expect(offenders).toEqual([]);
  });
});
