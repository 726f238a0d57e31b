import { addGroupMember, createGroup, createProject, createUser, queryOne } from '../support/factories';
import { PERSONAL_PROJECT_KEYS, PROJECT_SIMPLE_KEYS, USER_KEYS, USER_PUBLIC_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** Block/unblock, a user's projects, identities (GitLab 10.3's users API). */
const t = useTestApp();
const admin = () => api(t, ROOT_TOKEN);
const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace);

describe('POST /users/:id/block and POST /users/:id/unblock', () => {
  it('is for administrators: 401 anonymous, 403 users, 404 unknown users, 400 bad ids', async () => {
    const u = await createUser(t);
    expect((await api(t).post(`/api/v4/users/${u.id}/block`).expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
    expect((await api(t, u.token).post(`/api/v4/users/${u.id}/block`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await api(t, u.token).post(`/api/v4/users/${u.id}/unblock`).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
    expect((await admin().post('/api/v4/users/4242/block').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await admin().post('/api/v4/users/4242/unblock').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await admin().post('/api/v4/users/99999999999/block').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await admin().post('/api/v4/users/abc/block').expect(400)).body).toEqual({ error: 'id is invalid' });
  });

  it("answers 201 true when the state changes, 201 false when it already was; a blocked user's token fails", async () => {
    const u = await createUser(t);
    const blocked = await admin().post(`/api/v4/users/${u.id}/block`);
    expect([blocked.status, blocked.headers['content-type'], blocked.text]).toEqual([201, 'application/json', 'true']);
    expect((await admin().get(`/api/v4/users/${u.id}`)).body.state).toBe('blocked');
    expect((await api(t, u.token).get('/api/v4/user').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await admin().get('/api/v4/users?blocked=true')).body.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect((await admin().post(`/api/v4/users/${u.id}/block`).expect(201)).text).toBe('false');

    expect((await admin().post(`/api/v4/users/${u.id}/unblock`).expect(201)).text).toBe('true');
    expect((await api(t, u.token).get('/api/v4/user').expect(200)).body.state).toBe('active');
    expect((await admin().post(`/api/v4/users/${u.id}/unblock`).expect(201)).text).toBe('false');
  });

  it('has GraphQL twins userBlock / userUnblock with the same answers and errors', async () => {
    const u = await createUser(t);
    const block = `mutation { userBlock(input: { id: ${u.id} }) { changed errors } }`;
    expect((await admin().graphql(block)).body).toEqual({ data: { userBlock: { changed: true, errors: [] } } });
    expect((await admin().graphql(block)).body).toEqual({ data: { userBlock: { changed: false, errors: [] } } });
    expect((await admin().graphql(`{ user(id: ${u.id}) { state } }`)).body.data.user.state).toBe('blocked');
    expect((await admin().graphql(`mutation { userUnblock(input: { id: ${u.id} }) { changed errors } }`)).body).toEqual(
      { data: { userUnblock: { changed: true, errors: [] } } },
    );
    const other = await createUser(t);
    expect((await api(t, other.token).graphql(block)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (await admin().graphql('mutation { userUnblock(input: { id: 4242 }) { changed errors } }')).body.errors[0]
        .extensions.code,
    ).toBe('NOT_FOUND');
  });
});

describe('GET /users/:user_id/projects', () => {
  async function arrange() {
    const owner = await createUser(t, { username: 'owner' });
    const other = await createUser(t, { username: 'other' });
    const ns = { id: owner.namespaceId };
    const pub = await createProject(t, {
      namespace: ns,
      path: 'pub',
      name: 'Alpha',
      visibility: 'public',
      createdAt: new Date('2017-12-01T00:00:00Z'),
    });
    const int = await createProject(t, {
      namespace: ns,
      path: 'int',
      name: 'Beta',
      visibility: 'internal',
      createdAt: new Date('2017-12-02T00:00:00Z'),
    });
    const priv = await createProject(t, {
      namespace: ns,
      path: 'priv',
      name: 'Gamma',
      visibility: 'private',
      archived: true,
      createdAt: new Date('2017-12-03T00:00:00Z'),
    });
    // Not personal: a group project the owner is a member of, and another user's project.
    const g = await createGroup(t, { path: 'grp', visibility: 'public' });
    await addGroupMember(t, g, owner, 50);
    await createProject(t, { namespace: { id: g.id }, path: 'in-group', visibility: 'public' });
    await createProject(t, { namespace: { id: other.namespaceId }, path: 'theirs', visibility: 'public' });
    return { owner, other, pub, int, priv };
  }

  it('lists the personal projects the caller may see, newest first, by id or username', async () => {
    const { owner, other } = await arrange();
    const anon = await api(t).get(`/api/v4/users/${owner.id}/projects`).expect(200);
    expect(anon.headers['content-type']).toBe('application/json');
    expect(paths(anon.body)).toEqual(['owner/pub']);
    // GitLab 10.3: personal projects show their `owner`.
    expect(keys(anon.body[0])).toEqual(PERSONAL_PROJECT_KEYS);
    expect(paths((await api(t, other.token).get(`/api/v4/users/${owner.id}/projects`)).body)).toEqual([
      'owner/int',
      'owner/pub',
    ]);
    expect(paths((await api(t, owner.token).get('/api/v4/users/owner/projects')).body)).toEqual([
      'owner/priv',
      'owner/int',
      'owner/pub',
    ]);
    expect(paths((await admin().get('/api/v4/users/OWNER/projects')).body)).toEqual([
      'owner/priv',
      'owner/int',
      'owner/pub',
    ]);
    expect((await api(t).get('/api/v4/users/4242/projects').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t).get('/api/v4/users/nobody/projects').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await api(t).get('/api/v4/users/99999999999/projects').expect(404)).body).toEqual({
      message: '404 User Not Found',
    });
  });

  it("takes the projects list's filters, order, simple form and pages", async () => {
    const { owner, pub } = await arrange();
    const get = async (q: string) =>
      paths((await admin().get(`/api/v4/users/${owner.id}/projects?${q}`).expect(200)).body);
    expect(await get('archived=true')).toEqual(['owner/priv']);
    expect(await get('archived=false')).toEqual(['owner/int', 'owner/pub']);
    expect(await get('visibility=internal')).toEqual(['owner/int']);
    expect(await get('search=gam')).toEqual(['owner/priv']);
    expect(await get('order_by=name&sort=asc')).toEqual(['owner/pub', 'owner/int', 'owner/priv']);
    expect(await get('order_by=path&sort=desc')).toEqual(['owner/pub', 'owner/priv', 'owner/int']);
    // GitLab 10.3's PersonalProjectsFinder: owned and membership are accepted and change nothing here.
    expect(await get('owned=true&membership=true')).toEqual(['owner/priv', 'owner/int', 'owner/pub']);
    await admin().post(`/api/v4/projects/${pub.id}/star`).expect(201);
    expect(await get('starred=true')).toEqual(['owner/pub']);
    const simple = await admin().get(`/api/v4/users/${owner.id}/projects?simple=true`).expect(200);
    expect(keys(simple.body[0])).toEqual(PROJECT_SIMPLE_KEYS);
    const page = await admin().get(`/api/v4/users/${owner.id}/projects?per_page=1&page=2`).expect(200);
    expect(paths(page.body)).toEqual(['owner/int']);
    expect([
      page.headers['x-total'],
      page.headers['x-total-pages'],
      page.headers['x-page'],
      page.headers['x-next-page'],
    ]).toEqual(['3', '3', '2', '3']);
    expect((await admin().get(`/api/v4/users/${owner.id}/projects?order_by=stars`).expect(400)).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await admin().get(`/api/v4/users/${owner.id}/projects?archived=maybe`).expect(400)).body).toEqual({
      error: 'archived is invalid',
    });
  });

  it('filters by custom_attributes for administrators only, and matches GraphQL User.personalProjects', async () => {
    const { owner, other, int } = await arrange();
    await admin().put(`/api/v4/projects/${int.id}/custom_attributes/tier`).send({ value: 'gold' }).expect(200);
    expect(paths((await admin().get(`/api/v4/users/${owner.id}/projects?custom_attributes[tier]=gold`)).body)).toEqual([
      'owner/int',
    ]);
    expect(
      paths((await api(t, other.token).get(`/api/v4/users/${owner.id}/projects?custom_attributes[tier]=silver`)).body),
    ).toEqual(['owner/int', 'owner/pub']);
    const gql = await api(t, other.token).graphql(
      `{ user(username: "owner") { personalProjects(sort: NAME_ASC) { count nodes { pathWithNamespace visibility } } } }`,
    );
    expect(gql.body.data.user.personalProjects).toEqual({
      count: 2,
      nodes: [
        { pathWithNamespace: 'owner/pub', visibility: 'PUBLIC' },
        { pathWithNamespace: 'owner/int', visibility: 'INTERNAL' },
      ],
    });
    // An unknown user is null (REST: 404 User Not Found).
    expect((await api(t).graphql('{ user(username: "nobody") { personalProjects { count } } }')).body).toEqual({
      data: { user: null },
    });
  });

  it('issues the same number of SQL statements for 1 and 20 projects', async () => {
    const u = await createUser(t);
    await createProject(t, { namespace: { id: u.namespaceId }, visibility: 'public' });
    const one = await t.countQueries(() => api(t, u.token).get(`/api/v4/users/${u.id}/projects`).expect(200));
    for (let i = 0; i < 19; i += 1) await createProject(t, { namespace: { id: u.namespaceId }, visibility: 'public' });
    const twenty = await t.countQueries(() => api(t, u.token).get(`/api/v4/users/${u.id}/projects`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('identities (provider + extern_uid)', () => {
  const base = { email: 'ext@example.com', name: 'Ext', username: 'ext', password: 'secret123' };

  it('POST /users stores the identity and shows it; both or neither parameter', async () => {
    const res = await admin()
      .post('/api/v4/users')
      .send({ ...base, provider: 'ldapmain', extern_uid: 'uid=ext,ou=people' })
      .expect(201);
    expect(keys(res.body)).toEqual(USER_PUBLIC_KEYS);
    expect(res.body.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid=ext,ou=people' }]);
    const stored = await queryOne<{ provider: string; extern_uid: string }>(
      t,
      'select provider, extern_uid from identities where user_id = ?',
      [res.body.id],
    );
    expect(stored).toEqual({ provider: 'ldapmain', extern_uid: 'uid=ext,ou=people' });
    expect(
      (
        await admin()
          .post('/api/v4/users')
          .send({ ...base, username: 'ext2', email: 'e2@example.com', provider: 'ldapmain' })
          .expect(400)
      ).body,
    ).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
    expect((await admin().put(`/api/v4/users/${res.body.id}`).send({ extern_uid: 'x' }).expect(400)).body).toEqual({
      error: 'extern_uid, provider provide all or none of parameters',
    });
    // GraphQL: the same rule and message, from the service.
    const gql = await admin().graphql(
      'mutation { userCreate(input: { email: "e3@example.com", name: "E3", username: "ext3", password: "12345678", provider: "ldapmain" }) { user { id } errors } }',
    );
    expect(gql.body).toEqual({
      data: { userCreate: { user: null, errors: ['extern_uid, provider provide all or none of parameters'] } },
    });
  });

  it('PUT /users/:id updates the identity of that provider or adds one; a uid taken at the provider is refused', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({ ...base, provider: 'ldapmain', extern_uid: 'one' })
        .expect(201)
    ).body;
    await admin().put(`/api/v4/users/${u.id}`).send({ provider: 'ldapmain', extern_uid: 'two' }).expect(200);
    const both = await admin()
      .put(`/api/v4/users/${u.id}`)
      .send({ provider: 'github', extern_uid: '4711' })
      .expect(200);
    expect(both.body.identities).toEqual([
      { provider: 'github', extern_uid: '4711' },
      { provider: 'ldapmain', extern_uid: 'two' },
    ]);
    const v = await createUser(t);
    // GitLab's Identity: an external uid belongs to one user per provider, compared case-insensitively.
    expect(
      (await admin().put(`/api/v4/users/${v.id}`).send({ provider: 'ldapmain', extern_uid: 'TWO' }).expect(400)).body,
    ).toEqual({ message: { identities: ['is invalid'] } });
    expect(
      (
        await admin()
          .post('/api/v4/users')
          .send({ ...base, username: 'ext3', email: 'e3@example.com', provider: 'github', extern_uid: '4711' })
          .expect(400)
      ).body,
    ).toEqual({ message: { identities: ['is invalid'] } });
    expect(
      (await admin().put(`/api/v4/users/${v.id}`).send({ provider: '', extern_uid: 'x' }).expect(400)).body,
    ).toEqual({ message: { identities: ['is invalid'] } });
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from identities'))?.n).toBe('2');
    // Another provider may use the same uid.
    await admin().put(`/api/v4/users/${v.id}`).send({ provider: 'gitlab', extern_uid: 'two' }).expect(200);
  });

  it('shows identities to the user and to administrators only', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({ ...base, provider: 'ldapmain', extern_uid: 'one' })
        .expect(201)
    ).body;
    await admin()
      .post(`/api/v4/users/${u.id}/impersonation_tokens`)
      .send({ name: 'x', scopes: ['api'] })
      .expect(201);
    const other = await createUser(t);
    expect((await admin().get(`/api/v4/users/${u.id}`)).body.identities).toEqual([
      { provider: 'ldapmain', extern_uid: 'one' },
    ]);
    expect(keys((await api(t, other.token).get(`/api/v4/users/${u.id}`)).body)).toEqual(USER_KEYS);
    expect((await admin().get('/api/v4/users?username=ext')).body[0].identities).toEqual([
      { provider: 'ldapmain', extern_uid: 'one' },
    ]);
    const gql = `{ user(id: ${u.id}) { identities { provider externUid } } }`;
    expect((await admin().graphql(gql)).body.data.user.identities).toEqual([
      { provider: 'ldapmain', externUid: 'one' },
    ]);
    expect((await api(t, other.token).graphql(gql)).body.data.user.identities).toBeNull();
  });

  it('GET /users?extern_uid=&provider= finds the user (administrators only)', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({ ...base, provider: 'ldapmain', extern_uid: 'uid=Ext' })
        .expect(201)
    ).body;
    await createUser(t);
    const found = await admin().get('/api/v4/users?provider=ldapmain&extern_uid=UID%3Dext').expect(200);
    expect(found.body.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect(found.headers['x-total']).toBe('1');
    expect((await admin().get('/api/v4/users?provider=github&extern_uid=uid%3DExt').expect(200)).body).toEqual([]);
    const other = await createUser(t);
    expect(
      (await api(t, other.token).get('/api/v4/users?provider=ldapmain&extern_uid=uid%3DExt').expect(403)).body,
    ).toEqual({ message: '403 Forbidden' });
    expect((await api(t).get('/api/v4/users?provider=ldapmain&extern_uid=uid%3DExt').expect(401)).body).toEqual({
      message: '401 Unauthorized',
    });
    expect((await admin().get('/api/v4/users?provider=ldapmain').expect(400)).body).toEqual({
      error: 'extern_uid, provider provide all or none of parameters',
    });
    const gql = await admin().graphql('{ users(provider: "ldapmain", externUid: "uid=ext") { nodes { username } } }');
    expect(gql.body.data.users.nodes).toEqual([{ username: 'ext' }]);
  });

  it('goes with the user: deleting the user deletes the identities', async () => {
    const u = (
      await admin()
        .post('/api/v4/users')
        .send({ ...base, provider: 'ldapmain', extern_uid: 'one' })
        .expect(201)
    ).body;
    await admin().delete(`/api/v4/users/${u.id}`).expect(204);
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from identities'))?.n).toBe('0');
  });
});
