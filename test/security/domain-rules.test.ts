import { addGroupMember, createGroup, createProject, createUser, queryOne, shareProject } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Domain rules that guard data: e-mail search, share visibility, external users, group owners (expired owners, user deletion), keyset cursors and input sizes. */
const t = useTestApp();
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('GET /users?search= is no e-mail oracle', () => {
  it('matches e-mail substrings for admins only; others name, username and an exact e-mail', async () => {
    const u = await createUser(t, { username: 'plain-user', name: 'Plain User' });
    const target = await createUser(t, { username: 'zed', name: 'Zed' });
    await t.orm.em
      .getConnection()
      .execute(`update users set email = 'hidden.mailbox@corp.example' where id = ?`, [target.id]);
    await t.settled(); // the credential cache hears the write (docs/security.md#credential-cache)
    const search = async (token: string | undefined, term: string) =>
      (await api(t, token).get('/api/v4/users').query({ search: term })).body.map(
        (x: { username: string }) => x.username,
      );
    expect(await search(undefined, 'mailbox@corp')).toEqual([]);
    expect(await search(u.token, 'mailbox@corp')).toEqual([]);
    expect(await search(undefined, 'dmin@exa')).toEqual([]);
    expect(await search(ROOT_TOKEN, 'mailbox@corp')).toEqual(['zed']);
    expect(await search(u.token, 'HIDDEN.mailbox@corp.example')).toEqual(['zed']);
    expect(await search(undefined, 'ze')).toEqual(['zed']);
    const gql = await api(t, u.token).graphql('{ users(search: "mailbox@corp") { nodes { username } } }');
    expect(gql.body.data.users.nodes).toEqual([]);
  });
});

describe('shared_with_groups lists only groups the caller may read', () => {
  it('hides a private group from anonymous and non-member callers on REST and GraphQL', async () => {
    const home = await createGroup(t, { visibility: 'public' });
    const project = await createProject(t, { namespace: home, visibility: 'public' });
    const secret = await createGroup(t, { name: 'Secret Lab', path: 'secret-lab', visibility: 'private' });
    const open = await createGroup(t, { name: 'Open Lab', path: 'open-lab', visibility: 'public' });
    await shareProject(t, project, secret, 30);
    await shareProject(t, project, open, 30);
    const member = await createUser(t);
    await addGroupMember(t, secret, member, 10);
    const stranger = await createUser(t);
    const names = async (token?: string) =>
      (await api(t, token).get(`/api/v4/projects/${project.id}`)).body.shared_with_groups.map(
        (g: { group_name: string }) => g.group_name,
      );
    expect((await api(t).get(`/api/v4/groups/${secret.id}`)).status).toBe(404);
    expect(await names()).toEqual(['Open Lab']);
    expect(await names(stranger.token)).toEqual(['Open Lab']);
    expect(await names(member.token)).toEqual(['Secret Lab', 'Open Lab']);
    expect(await names(ROOT_TOKEN)).toEqual(['Secret Lab', 'Open Lab']);
    const gql = await api(t).graphql(`{ project(id: "${project.id}") { sharedWithGroups { groupName } } }`);
    expect(gql.body.data.project.sharedWithGroups).toEqual([{ groupName: 'Open Lab' }]);
  });
});

describe('external users create no groups and no projects', () => {
  it('refuses a top-level group (403) and a personal project (403, projects_limit 0), as GitLab 10.3 does', async () => {
    const ext = await createUser(t, { external: true, canCreateGroup: true });
    const group = await api(t, ext.token).post('/api/v4/groups').send({ name: 'Ext', path: 'ext-group' });
    expect(group.status).toBe(403);
    expect(group.body).toEqual({ message: '403 Forbidden' });
    const project = await api(t, ext.token).post('/api/v4/projects').send({ name: 'ext-project' });
    expect(project.status).toBe(403);
    expect(project.body).toEqual({
      message: ['Personal project creation is not allowed. Please contact your administrator with questions'],
    });
    const gqlProject = await api(t, ext.token).graphql(
      'mutation { projectCreate(input: { name: "ext-p2" }) { project { id } errors } }',
    );
    // The limit is the model's message (REST's 403 body): in the payload's errors, as GitLab's mutations report it.
    expect(gqlProject.body).toEqual({
      data: {
        projectCreate: {
          project: null,
          errors: ['Personal project creation is not allowed. Please contact your administrator with questions'],
        },
      },
    });
    const gql = await api(t, ext.token).graphql(
      'mutation { groupCreate(input: { name: "Ext2", path: "ext2" }) { group { id } errors } }',
    );
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await queryOne<{ n: string }>(t, `select count(*) as n from namespaces where kind = 'group'`)).toEqual({
      n: '0',
    });
  });
});

describe('a group keeps an owner', () => {
  it('does not count an expired owner: the last active owner cannot leave or be demoted', async () => {
    const g = await createGroup(t);
    const owner = await createUser(t);
    const expired = await createUser(t);
    await addGroupMember(t, g, owner, 50);
    await addGroupMember(t, g, expired, 50);
    await t.orm.em
      .getConnection()
      .execute(`update group_members set expires_at = current_date - 1 where user_id = ?`, [expired.id]);
    expect(
      (await api(t, owner.token).put(`/api/v4/groups/${g.id}/members/${owner.id}`).send({ access_level: 30 })).status,
    ).toBe(403);
    expect((await api(t, owner.token).delete(`/api/v4/groups/${g.id}/members/${owner.id}`)).status).toBe(403);
    expect((await api(t, owner.token).delete(`/api/v4/groups/${g.id}/members/${expired.id}`)).status).toBe(204);
  });

  it('DELETE /users/:id of a sole owner is refused (409) unless hard_delete removes the solo-owned groups', async () => {
    const g = await createGroup(t, { path: 'solo-owned' });
    const shared = await createGroup(t, { path: 'co-owned' });
    const owner = await createUser(t);
    const other = await createUser(t);
    await addGroupMember(t, g, owner, 50);
    await addGroupMember(t, shared, owner, 50);
    await addGroupMember(t, shared, other, 50);
    const refused = await api(t, ROOT_TOKEN).delete(`/api/v4/users/${owner.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: 'You must transfer ownership or delete groups before you can remove user',
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/users/${owner.id}`)).status).toBe(200);
    expect((await api(t, ROOT_TOKEN).delete(`/api/v4/users/${owner.id}`).query({ hard_delete: true })).status).toBe(
      204,
    );
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}`)).status).toBe(404);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${shared.id}`)).status).toBe(200);
    const gql = await api(t, ROOT_TOKEN).graphql(`mutation { userDelete(input: { id: ${other.id} }) { errors } }`);
    // The conflict is the payload's error (GitLab's mutations); the user stays.
    expect(gql.body).toEqual({
      data: { userDelete: { errors: ['You must transfer ownership or delete groups before you can remove user'] } },
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/users/${other.id}`)).status).toBe(200);
  });
});

describe('forged keyset cursors are 400 on REST and GraphQL', () => {
  it.each([[{ v: 1e300, id: 1 }], [{ v: '\u0000', id: 1 }], [{ v: 'a', id: 2 ** 62 }], [{ v: '\ud800', id: 1 }]])(
    'cursor %j',
    async (cursor) => {
      await createGroup(t, { visibility: 'public' });
      const rest = await api(t, ROOT_TOKEN)
        .get('/api/v4/groups')
        .query({ pagination: 'keyset', order_by: 'name', cursor: b64(cursor) });
      expect(rest.status).toBe(400);
      expect(rest.body).toEqual({ error: 'cursor is invalid' });
      const gql = await api(t, ROOT_TOKEN).graphql(
        'query($c: String) { groups(orderBy: NAME, after: $c) { nodes { id } } }',
        { c: b64(cursor) },
      );
      expect(gql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    },
  );
});

describe('input sizes are bounded as GitLab bounds them', () => {
  it('bio (255), project description (2000), tags (100 x 255) and a token expiring in the past are 400 model errors', async () => {
    const u = await createUser(t);
    const bio = await api(t, ROOT_TOKEN)
      .put(`/api/v4/users/${u.id}`)
      .send({ bio: 'b'.repeat(1_000_000) });
    expect(bio.status).toBe(400);
    expect(bio.body).toEqual({ message: { bio: ['is too long (maximum is 255 characters)'] } });
    const desc = await api(t, u.token)
      .post('/api/v4/projects')
      .send({ name: 'p1', description: 'd'.repeat(1_000_000) });
    expect(desc.status).toBe(400);
    expect(desc.body).toEqual({ message: { description: ['is too long (maximum is 2000 characters)'] } });
    const tags = await api(t, u.token)
      .post('/api/v4/projects')
      .send({ name: 'p2', tag_list: Array.from({ length: 5000 }, (_, i) => `t${i}`) });
    expect(tags.status).toBe(400);
    expect(tags.body).toEqual({ message: { tag_list: ['is too long (maximum is 100 tags)'] } });
    const token = await api(t, ROOT_TOKEN)
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'old', scopes: ['api'], expires_at: '2000-01-01' });
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    expect(await queryOne<{ n: string }>(t, 'select count(*) as n from projects')).toEqual({ n: '0' });
    const ok = await api(t, u.token)
      .post('/api/v4/projects')
      .send({ name: 'p3', description: 'd'.repeat(2000), tag_list: ['a', 'b'] });
    expect(ok.status).toBe(201);
  });
});
