import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
  type TestProject,
} from '../support/factories';
import { PROJECT_SIMPLE_KEYS, keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp, type TestApp } from '../support/test-app';

/** Slug suffixes are always "aaaaaa": predictable, and two names slugifying alike collide. */
const t = useTestApp({ random: () => 0 });
const ENV_KEYS = ['external_url', 'id', 'name', 'project', 'slug', 'state'];
const base = (p: { id: number }) => `/api/v4/projects/${p.id}/environments`;

async function createEnv(
  app: TestApp,
  p: TestProject,
  name: string,
  externalUrl?: string,
): Promise<{ id: number; slug: string }> {
  const res = await api(app, ROOT_TOKEN).post(base(p)).send({ name, external_url: externalUrl });
  expect(res.status).toBe(201);
  return res.body;
}

type Role =
  | 'guest'
  | 'reporter'
  | 'developer'
  | 'master'
  | 'owner'
  | 'public non-member'
  | 'private non-member'
  | 'admin'
  | 'anonymous';
const ROLES: Role[] = [
  'guest',
  'reporter',
  'developer',
  'master',
  'owner',
  'public non-member',
  'private non-member',
  'admin',
  'anonymous',
];

/** A private project in a group and a public one; a token per role (owner through the group). */
async function world(): Promise<{
  project: TestProject;
  publicProject: TestProject;
  token: (r: Role) => string | undefined;
}> {
  const group = await createGroup(t);
  const project = await createProject(t, { namespace: group });
  const publicProject = await createProject(t, { namespace: group, visibility: 'public' });
  const tokens: Partial<Record<Role, string>> = { admin: ROOT_TOKEN };
  for (const [role, level] of [
    ['guest', 10],
    ['reporter', 20],
    ['developer', 30],
    ['master', 40],
  ] as const) {
    const u = await createUser(t);
    await addProjectMember(t, project, u, level);
    tokens[role] = u.token;
  }
  const owner = await createUser(t);
  await addGroupMember(t, group, owner, 50);
  tokens.owner = owner.token;
  const stranger = await createUser(t);
  tokens['public non-member'] = stranger.token;
  tokens['private non-member'] = stranger.token;
  return { project, publicProject, token: (r) => tokens[r] };
}

const projectOf = (w: Awaited<ReturnType<typeof world>>, r: Role) =>
  r === 'public non-member' ? w.publicProject : w.project;

describe('role matrix (GitLab 10.3: reporter lists, developer creates and stops, master updates and deletes)', () => {
  const expected: Record<string, Record<Role, number>> = {
    list: {
      guest: 403,
      reporter: 200,
      developer: 200,
      master: 200,
      owner: 200,
      'public non-member': 403,
      'private non-member': 404,
      admin: 200,
      anonymous: 401,
    },
    create: {
      guest: 403,
      reporter: 403,
      developer: 201,
      master: 201,
      owner: 201,
      'public non-member': 403,
      'private non-member': 404,
      admin: 201,
      anonymous: 401,
    },
    update: {
      guest: 403,
      reporter: 403,
      developer: 403,
      master: 200,
      owner: 200,
      'public non-member': 403,
      'private non-member': 404,
      admin: 200,
      anonymous: 401,
    },
    delete: {
      guest: 403,
      reporter: 403,
      developer: 403,
      master: 204,
      owner: 204,
      'public non-member': 403,
      'private non-member': 404,
      admin: 204,
      anonymous: 401,
    },
    stop: {
      guest: 403,
      reporter: 403,
      developer: 200,
      master: 200,
      owner: 200,
      'public non-member': 403,
      'private non-member': 404,
      admin: 200,
      anonymous: 401,
    },
  };
  const BODY: Record<number, object | undefined> = {
    401: { message: '401 Unauthorized' },
    403: { message: '403 Forbidden' },
    404: { message: '404 Project Not Found' },
  };

  it.each(Object.keys(expected))('%s', async (op) => {
    const w = await world();
    for (const role of ROLES) {
      const p = projectOf(w, role);
      const env = await createEnv(t, p, `env-${op}-${role.replace(/ /g, '-')}`);
      const a = api(t, w.token(role));
      const res =
        op === 'list'
          ? await a.get(base(p))
          : op === 'create'
            ? await a.post(base(p)).send({ name: `new-${role.replace(/ /g, '-')}` })
            : op === 'update'
              ? await a.put(`${base(p)}/${env.id}`).send({ external_url: `https://${role.replace(/ /g, '-')}.test` })
              : op === 'delete'
                ? await a.delete(`${base(p)}/${env.id}`)
                : await a.post(`${base(p)}/${env.id}/stop`);
      expect([role, res.status]).toEqual([role, expected[op][role]]);
      if (BODY[res.status]) expect(res.body).toEqual(BODY[res.status]);
    }
  });

  it('jobs disabled on the project: every operation is 403, administrators included', async () => {
    const w = await world();
    const env = await createEnv(t, w.project, 'production');
    await t.orm.em.getConnection().execute('update projects set jobs_enabled = false where id = ?', [w.project.id]);
    for (const token of [ROOT_TOKEN, w.token('master')]) {
      expect((await api(t, token).get(base(w.project))).body).toEqual({ message: '403 Forbidden' });
      expect((await api(t, token).post(base(w.project)).send({ name: 'x' })).status).toBe(403);
      expect(
        (
          await api(t, token)
            .put(`${base(w.project)}/${env.id}`)
            .send({ name: 'y' })
        ).status,
      ).toBe(403);
      expect((await api(t, token).post(`${base(w.project)}/${env.id}/stop`)).status).toBe(403);
      expect((await api(t, token).delete(`${base(w.project)}/${env.id}`)).status).toBe(403);
    }
  });
});

describe('GET /projects/:id/environments', () => {
  it('lists by id with the 10.x entity (+ state) and pagination headers; path ids work', async () => {
    const g = await createGroup(t, { path: 'envs' });
    const p = await createProject(t, { namespace: g, path: 'app' });
    const prod = await createEnv(t, p, 'production', 'https://prod.example.test');
    const review = await createEnv(t, p, 'review/fix-foo');
    const res = await api(t, ROOT_TOKEN).get('/api/v4/projects/envs%2Fapp/environments?per_page=1&page=2');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect([
      res.headers['x-total'],
      res.headers['x-total-pages'],
      res.headers['x-page'],
      res.headers['x-per-page'],
      res.headers['x-prev-page'],
      res.headers['x-next-page'],
    ]).toEqual(['2', '2', '2', '1', '1', '']);
    expect(keys(res.body[0])).toEqual(ENV_KEYS);
    expect(res.body[0]).toMatchObject({
      id: review.id,
      name: 'review/fix-foo',
      slug: 'review-fix-foo-aaaaaa',
      external_url: null,
      state: 'available',
    });
    expect(keys(res.body[0].project)).toEqual(PROJECT_SIMPLE_KEYS);
    expect(res.body[0].project).toMatchObject({ id: p.id, path_with_namespace: 'envs/app' });
    const all = await api(t, ROOT_TOKEN).get(base(p));
    expect(all.body.map((e: { id: number }) => e.id)).toEqual([prod.id, review.id]);
    expect(all.body[0]).toMatchObject({
      name: 'production',
      slug: 'production',
      external_url: 'https://prod.example.test',
    });
  });

  it('unknown project: 404 Project Not Found; bad page: 400', async () => {
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects/424242/environments')).body).toEqual({
      message: '404 Project Not Found',
    });
    const p = await createProject(t, { namespace: await createGroup(t) });
    expect((await api(t, ROOT_TOKEN).get(`${base(p)}?page=abc`)).body).toEqual({ error: 'page is invalid' });
  });

  it('issues the same number of SQL statements for 1 and 20 environments', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    await createEnv(t, p, 'e0');
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(base(p)).expect(200));
    for (let i = 1; i < 20; i += 1) await createEnv(t, p, `e${i}`);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get(base(p)).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('GET /projects/:id/environments/:environment_id', () => {
  it('answers one environment with the list entity to reporters and above; 404s as GitLab', async () => {
    const w = await world();
    const env = await createEnv(t, w.project, 'staging', 'https://staging.example.test');
    const one = await api(t, w.token('reporter'))
      .get(`${base(w.project)}/${env.id}`)
      .expect(200);
    expect(keys(one.body)).toEqual(ENV_KEYS);
    expect(one.body).toMatchObject({ id: env.id, name: 'staging', slug: 'staging', state: 'available' });
    expect(one.body).toEqual((await api(t, ROOT_TOKEN).get(base(w.project)).expect(200)).body[0]);
    expect(
      (
        await api(t, w.token('guest'))
          .get(`${base(w.project)}/${env.id}`)
          .expect(403)
      ).body,
    ).toEqual({
      message: '403 Forbidden',
    });
    expect(
      (
        await api(t, w.token('private non-member'))
          .get(`${base(w.project)}/${env.id}`)
          .expect(404)
      ).body,
    ).toEqual({ message: '404 Project Not Found' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .get(`${base(w.project)}/424242`)
          .expect(404)
      ).body,
    ).toEqual({
      message: '404 Not found',
    });
    const other = await createProject(t, { namespace: await createGroup(t) });
    await api(t, ROOT_TOKEN)
      .get(`${base(other)}/${env.id}`)
      .expect(404);
  });
});

describe('POST /projects/:id/environments', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await createProject(t, { namespace: await createGroup(t) });
  });

  it('201 with the generated slug; persisted; form bodies work too', async () => {
    const res = await api(t, ROOT_TOKEN)
      .post(base(p))
      .type('form')
      .send({ name: 'Staging 1', external_url: 'http://staging.test/' });
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual(ENV_KEYS);
    expect(res.body).toMatchObject({
      name: 'Staging 1',
      slug: 'staging-1-aaaaaa',
      external_url: 'http://staging.test/',
      state: 'available',
    });
    expect(await queryOne(t, 'select name, slug, state from environments where id = ?', [res.body.id])).toEqual({
      name: 'Staging 1',
      slug: 'staging-1-aaaaaa',
      state: 'available',
    });
  });

  it('parameter errors (400 {"error"}) come before the project lookup (non-member, unknown project)', async () => {
    const stranger = await createUser(t);
    expect((await api(t, stranger.token).post(base(p)).send({})).body).toEqual({ error: 'name is missing' });
    expect((await api(t, ROOT_TOKEN).post('/api/v4/projects/424242/environments').send({ slug: 'x' })).body).toEqual({
      error: 'name is missing, slug is automatically generated and cannot be changed',
    });
    expect((await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'a', slug: 'a' })).body).toEqual({
      error: 'slug is automatically generated and cannot be changed',
    });
    expect((await api(t).post(base(p)).send({})).body).toEqual({ message: '401 Unauthorized' });
  });

  it('model validations: 400 {"message":{...}} with GitLab messages', async () => {
    await createEnv(t, p, 'production', 'https://prod.test');
    const dup = await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'production' });
    expect([dup.status, dup.body]).toEqual([
      400,
      { message: { name: ['has already been taken'], slug: ['has already been taken'] } },
    ]);
    await createEnv(t, p, 'Review');
    expect((await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'REVIEW' })).body).toEqual({
      message: { slug: ['has already been taken'] },
    });
    expect((await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'bad!name' })).body).toEqual({
      message: { name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces"] },
    });
    expect((await api(t, ROOT_TOKEN).post(base(p)).send({ name: '' })).body).toEqual({
      message: {
        name: ["can't be blank", "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces"],
      },
    });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .post(base(p))
          .send({ name: 'n'.repeat(256) })
      ).body,
    ).toEqual({ message: { name: ['is too long (maximum is 255 characters)'] } });
    expect((await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'x', external_url: 'ftp://files.test' })).body).toEqual(
      { message: { external_url: ['must be a valid URL'] } },
    );
    expect(
      (await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'y', external_url: 'https://prod.test' })).body,
    ).toEqual({ message: { external_url: ['has already been taken'] } });
  });

  it('a blank external_url is stored as null', async () => {
    const res = await api(t, ROOT_TOKEN).post(base(p)).send({ name: 'blank', external_url: '  ' });
    expect([res.status, res.body.external_url]).toEqual([201, null]);
  });
});

describe('PUT /projects/:id/environments/:environment_id', () => {
  it('renames and changes external_url; the slug never changes; blank url → null', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const env = await createEnv(t, p, 'staging', 'https://staging.test');
    const res = await api(t, ROOT_TOKEN)
      .put(`${base(p)}/${env.id}`)
      .send({ name: 'Pre Production', external_url: '' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(ENV_KEYS);
    expect(res.body).toMatchObject({ id: env.id, name: 'Pre Production', slug: 'staging', external_url: null });
    expect((await api(t, ROOT_TOKEN).get(base(p))).body[0]).toMatchObject({ name: 'Pre Production', slug: 'staging' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/${env.id}`)
          .send({})
      ).body,
    ).toMatchObject({ name: 'Pre Production' });
  });

  it('400 / 404 bodies', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const other = await createProject(t, { namespace: await createGroup(t) });
    const env = await createEnv(t, p, 'one');
    await createEnv(t, p, 'two');
    const foreign = await createEnv(t, other, 'three');
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/abc`)
          .send({ name: 'x' })
      ).body,
    ).toEqual({ error: 'environment_id is invalid' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/${env.id}`)
          .send({ slug: 'x' })
      ).body,
    ).toEqual({ error: 'slug is automatically generated and cannot be changed' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/424242`)
          .send({ name: 'x' })
      ).body,
    ).toEqual({ message: '404 Not found' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/99999999999`)
          .send({ name: 'x' })
      ).body,
    ).toEqual({ message: '404 Not found' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/${foreign.id}`)
          .send({ name: 'x' })
      ).body,
    ).toEqual({ message: '404 Not found' });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/${env.id}`)
          .send({ name: 'two' })
      ).body,
    ).toEqual({ message: { name: ['has already been taken'] } });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/${env.id}`)
          .send({ external_url: 'nope' })
      ).body,
    ).toEqual({ message: { external_url: ['must be a valid URL'] } });
  });
});

describe('DELETE /projects/:id/environments/:environment_id', () => {
  it('204 with an empty body, in any state; unknown → 404 Not found', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const env = await createEnv(t, p, 'production');
    const res = await api(t, ROOT_TOKEN).delete(`${base(p)}/${env.id}`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect(await queryOne(t, 'select id from environments where id = ?', [env.id])).toBeUndefined();
    expect((await api(t, ROOT_TOKEN).delete(`${base(p)}/${env.id}`)).body).toEqual({ message: '404 Not found' });
  });
});

describe('POST /projects/:id/environments/:environment_id/stop (and the /api/v3 alias, spec 9)', () => {
  it('200: available → stopped; stopping again is a 200 no-op', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const env = await createEnv(t, p, 'review');
    const res = await api(t, ROOT_TOKEN).post(`${base(p)}/${env.id}/stop`);
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(ENV_KEYS);
    expect(res.body).toMatchObject({ id: env.id, name: 'review', state: 'stopped' });
    const again = await api(t, ROOT_TOKEN).post(`${base(p)}/${env.id}/stop`);
    expect([again.status, again.body]).toEqual([200, res.body]);
    expect((await api(t, ROOT_TOKEN).post(`${base(p)}/424242/stop`)).body).toEqual({ message: '404 Not found' });
  });

  it('/api/v3 answers exactly like /api/v4 (status, headers, body); other v3 paths are 404', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const env = await createEnv(t, p, 'review');
    const dev = await createUser(t);
    await addProjectMember(t, p, dev, 20);
    const v3 = await api(t, ROOT_TOKEN).post(`/api/v3/projects/${p.id}/environments/${env.id}/stop`);
    const v4 = await api(t, ROOT_TOKEN).post(`${base(p)}/${env.id}/stop`);
    expect([v3.status, v3.headers['content-type'], v3.body]).toEqual([v4.status, v4.headers['content-type'], v4.body]);
    expect(v3.body.state).toBe('stopped');
    for (const path of [`${env.id}/stop`, '424242/stop', 'abc/stop']) {
      for (const token of [ROOT_TOKEN, dev.token, undefined]) {
        const a = await api(t, token).post(`/api/v3/projects/${p.id}/environments/${path}`);
        const b = await api(t, token).post(`/api/v4/projects/${p.id}/environments/${path}`);
        expect([a.status, a.body]).toEqual([b.status, b.body]);
      }
    }
    expect((await api(t, ROOT_TOKEN).get(`/api/v3/projects/${p.id}/environments`)).body).toEqual({
      error: '404 Not Found',
    });
  });
});
