import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  queryOne,
  type TestProject,
} from '../support/factories';
import { chain, issue, traditionalPem, type Issued } from '../support/certificates';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

const t = useTestApp({ env: { PAGES_HOST: 'pages.acme.io' } });
const DOMAIN_KEYS = ['domain', 'url'];
const DOMAIN_CERT_KEYS = ['certificate', 'domain', 'url'];
const CERT_KEYS = ['certificate', 'certificate_text', 'expired', 'subject'];
const BASIC_KEYS = ['domain', 'project_id', 'url'];
const BASIC_CERT_KEYS = ['certificate_expiration', 'domain', 'project_id', 'url'];
const base = (p: { id: number }) => `/api/v4/projects/${p.id}/pages/domains`;

let ec: Issued;
let rsa: Issued;
let other: Issued;
let expired: Issued;
let future: Issued;
let chained: { root: Issued; intermediate: Issued; leaf: Issued };
beforeAll(async () => {
  ec = await issue({ cn: 'ssl.domain.test', kind: 'ec' });
  rsa = await issue({ cn: 'rsa.domain.test' });
  other = await issue({ cn: 'other.test', kind: 'ec' });
  expired = await issue({ cn: 'old.test', kind: 'ec', from: -60, to: -30 });
  future = await issue({ cn: 'soon.test', kind: 'ec', from: 10, to: 60 });
  chained = await chain('chain.domain.test', 'ec');
});

async function project(): Promise<TestProject> {
  return createProject(t, { namespace: await createGroup(t) });
}
const create = (p: TestProject, body: Record<string, unknown>, token = ROOT_TOKEN) =>
  api(t, token).post(base(p)).send(body);
/** The slot a domain's key is sealed for (bound to its row). */
const keySlot = (p: TestProject, domain: string) => ({
  table: 'pages_domains',
  column: 'sealed_key',
  row: `${p.id}:${domain}`,
});

describe('role matrix: Master or Owner (or admin) reads and writes (spec 4.25-4.29)', () => {
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
  const OK: Role[] = ['master', 'owner', 'admin'];
  it.each(['list', 'get', 'create', 'update', 'delete'])('%s', async (op) => {
    const group = await createGroup(t);
    const priv = await createProject(t, { namespace: group });
    const pub = await createProject(t, { namespace: group, visibility: 'public' });
    const tokens: Partial<Record<Role, string>> = { admin: ROOT_TOKEN };
    for (const [role, level] of [
      ['guest', 10],
      ['reporter', 20],
      ['developer', 30],
      ['master', 40],
    ] as const) {
      const u = await createUser(t);
      await addProjectMember(t, priv, u, level);
      tokens[role] = u.token;
    }
    const owner = await createUser(t);
    await addGroupMember(t, group, owner, 50);
    tokens.owner = owner.token;
    tokens['public non-member'] = tokens['private non-member'] = (await createUser(t)).token;
    let n = 0;
    for (const role of [
      'guest',
      'reporter',
      'developer',
      'master',
      'owner',
      'public non-member',
      'private non-member',
      'admin',
      'anonymous',
    ] as Role[]) {
      const p = role === 'public non-member' ? pub : priv;
      n += 1;
      await create(p, { domain: `d${n}.${op}.test` }).expect(201);
      const a = api(t, tokens[role]);
      const res =
        op === 'list'
          ? await a.get(base(p))
          : op === 'get'
            ? await a.get(`${base(p)}/d${n}.${op}.test`)
            : op === 'create'
              ? await a.post(base(p)).send({ domain: `new${n}.test` })
              : op === 'update'
                ? await a.put(`${base(p)}/d${n}.${op}.test`)
                : await a.delete(`${base(p)}/d${n}.${op}.test`);
      const want =
        role === 'anonymous'
          ? 401
          : role === 'private non-member'
            ? 404
            : OK.includes(role)
              ? { list: 200, get: 200, create: 201, update: 200, delete: 204 }[op]
              : 403;
      expect([role, res.status]).toEqual([role, want]);
      if (want === 403) expect(res.body).toEqual({ message: '403 Forbidden' });
      if (want === 404) expect(res.body).toEqual({ message: '404 Project Not Found' });
      if (want === 401) expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
  });
});

describe('GET /pages/domains', () => {
  it('administrators: every domain, project_id, certificate_expiration only with a certificate', async () => {
    const p = await project();
    await create(p, { domain: 'plain.test' }).expect(201);
    await create(p, { domain: 'ssl.domain.test', certificate: ec.pem, key: ec.keyPem }).expect(201);
    await create(p, { domain: 'old.test', certificate: expired.pem, key: expired.keyPem }).expect(201);
    const res = await api(t, ROOT_TOKEN).get('/api/v4/pages/domains');
    expect(res.status).toBe(200);
    expect(res.headers['x-total']).toBe('3');
    expect(res.body.map(keys)).toEqual([BASIC_KEYS, BASIC_CERT_KEYS, BASIC_CERT_KEYS]);
    expect(res.body[0]).toEqual({ domain: 'plain.test', url: 'http://plain.test', project_id: p.id });
    expect(res.body[1]).toEqual({
      domain: 'ssl.domain.test',
      url: 'https://ssl.domain.test',
      project_id: p.id,
      certificate_expiration: { expired: false, expiration: ec.cert.notAfter.toISOString() },
    });
    expect(res.body[2].certificate_expiration).toEqual({
      expired: true,
      expiration: expired.cert.notAfter.toISOString(),
    });
  });

  it('401 anonymous, 403 for users; statement count does not grow with rows', async () => {
    const u = await createUser(t);
    expect((await api(t).get('/api/v4/pages/domains')).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, u.token).get('/api/v4/pages/domains')).body).toEqual({ message: '403 Forbidden' });
    const p = await project();
    await create(p, { domain: 'a0.test', certificate: ec.pem, key: ec.keyPem }).expect(201);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/pages/domains').expect(200));
    for (let i = 1; i < 20; i += 1) await create(p, { domain: `a${i}.test` }).expect(201);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/pages/domains').expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('GET /projects/:id/pages/domains(/:domain)', () => {
  it('lists by domain; the certificate object only with a certificate; never the key', async () => {
    const p = await project();
    await create(p, { domain: 'zeta.test' }).expect(201);
    await create(p, { domain: 'ssl.domain.test', certificate: ec.pem, key: ec.keyPem }).expect(201);
    const res = await api(t, ROOT_TOKEN).get(base(p));
    expect(res.body.map((d: { domain: string }) => d.domain)).toEqual(['ssl.domain.test', 'zeta.test']);
    expect(res.body.map(keys)).toEqual([DOMAIN_CERT_KEYS, DOMAIN_KEYS]);
    expect(keys(res.body[0].certificate)).toEqual(CERT_KEYS);
    expect(res.body[0].certificate).toMatchObject({
      subject: '/CN=ssl.domain.test',
      expired: false,
      certificate: ec.pem,
    });
    expect(res.body[0].certificate.certificate_text).toMatch(/^Certificate:\n {4}Data:\n/);
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
  });

  it('dotted names in the path, stored in lower case and found whatever the case; unknown → 404 PagesDomain Not Found', async () => {
    const p = await project();
    const created = await create(p, { domain: 'www.Example.org' });
    expect([created.status, created.body]).toEqual([201, { domain: 'www.example.org', url: 'http://www.example.org' }]);
    for (const name of ['www.Example.org', 'www.example.org', 'WWW.EXAMPLE.ORG']) {
      const res = await api(t, ROOT_TOKEN).get(`${base(p)}/${name}`);
      expect([name, res.status, res.body]).toEqual([
        name,
        200,
        { domain: 'www.example.org', url: 'http://www.example.org' },
      ]);
    }
    expect((await api(t, ROOT_TOKEN).get(`${base(p)}/nope.test`)).body).toEqual({
      message: '404 PagesDomain Not Found',
    });
    const elsewhere = await project();
    expect((await api(t, ROOT_TOKEN).get(`${base(elsewhere)}/www.Example.org`)).body).toEqual({
      message: '404 PagesDomain Not Found',
    });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/projects/424242/pages/domains/x.test')).body).toEqual({
      message: '404 Project Not Found',
    });
  });

  it('the project list issues the same number of statements for 1 and 20 domains', async () => {
    const p = await project();
    await create(p, { domain: 'b0.test', certificate: ec.pem, key: ec.keyPem }).expect(201);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(base(p)).expect(200));
    for (let i = 1; i < 20; i += 1) await create(p, { domain: `b${i}.test` }).expect(201);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get(base(p)).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('POST /projects/:id/pages/domains', () => {
  it('201 without a certificate (http) and with one (https), JSON or form strings; RSA and EC keys in any PEM form', async () => {
    const p = await project();
    const plain = await create(p, { domain: 'plain.test' });
    expect([plain.status, plain.body]).toEqual([201, { domain: 'plain.test', url: 'http://plain.test' }]);
    const form = await api(t, ROOT_TOKEN)
      .post(base(p))
      .type('form')
      .send({ domain: 'rsa.domain.test', certificate: rsa.pem, key: traditionalPem(rsa.keyPem) });
    expect(form.status).toBe(201);
    expect(form.body).toEqual({
      domain: 'rsa.domain.test',
      url: 'https://rsa.domain.test',
      certificate: {
        subject: '/CN=rsa.domain.test',
        expired: false,
        certificate: rsa.pem,
        certificate_text: expect.stringContaining('Public-Key: (2048 bit)'),
      },
    });
    expect((await create(p, { domain: 'ec.test', certificate: ec.pem, key: traditionalPem(ec.keyPem) })).status).toBe(
      201,
    );
    expect(
      (
        await create(p, {
          domain: 'chain.domain.test',
          certificate: chained.leaf.pem + chained.intermediate.pem + chained.root.pem,
          key: chained.leaf.keyPem,
        })
      ).status,
    ).toBe(201);
  });

  it('expired and not-yet-valid self-signed certificates are accepted and shown expired', async () => {
    const p = await project();
    expect(
      (await create(p, { domain: 'old.test', certificate: expired.pem, key: expired.keyPem })).body.certificate.expired,
    ).toBe(true);
    expect(
      (await create(p, { domain: 'soon.test', certificate: future.pem, key: future.keyPem })).body.certificate.expired,
    ).toBe(true);
  });

  it('the private key is sealed at rest and never returned', async () => {
    const p = await project();
    const res = await create(p, { domain: 'sealed.test', certificate: ec.pem, key: ec.keyPem });
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
    const row = await queryOne<{ sealed_key: string; certificate: string }>(
      t,
      "select sealed_key, certificate from pages_domains where domain = 'sealed.test'",
    );
    expect(row!.sealed_key).not.toContain('PRIVATE KEY');
    expect(row!.sealed_key.startsWith('v2:')).toBe(true); // bound to its row
    expect(TEST_SECRETS.open(row!.sealed_key, keySlot(p, 'sealed.test'))).toBe(ec.keyPem);
    expect(row!.certificate).toBe(ec.pem);
  });

  it('parameter errors: 400 {"error"}', async () => {
    const p = await project();
    expect((await create(p, {})).body).toEqual({ error: 'domain is missing' });
    expect((await create(p, { domain: 'x.test', certificate: ec.pem })).body).toEqual({
      error: 'certificate, key provide all or none of parameters',
    });
    expect((await create(p, { domain: 'x.test', key: ec.keyPem })).body).toEqual({
      error: 'certificate, key provide all or none of parameters',
    });
    expect((await create(p, { domain: 'x.test', certificate: ' ', key: '' })).body).toEqual({
      error: 'certificate is empty, key is empty',
    });
    expect((await create(p, { certificate: '' })).body).toEqual({
      error: 'domain is missing, certificate is empty, certificate, key provide all or none of parameters',
    });
    const dev = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    expect((await create(p, { domain: 'x.test', certificate: ec.pem }, dev.token)).body).toEqual({
      error: 'certificate, key provide all or none of parameters',
    });
    expect((await create(p, { domain: 'x.test' }, dev.token)).body).toEqual({ message: '403 Forbidden' });
  });

  it('model validations: 400 {"message":{...}} with the reference messages', async () => {
    const p = await project();
    await create(p, { domain: 'Taken.test' }).expect(201);
    const msg = async (body: Record<string, unknown>) => {
      const res = await create(p, body);
      expect(res.status).toBe(400);
      return res.body.message;
    };
    expect(await msg({ domain: 'taken.TEST' })).toEqual({ domain: ['has already been taken'] });
    expect(await msg({ domain: 'bad_host.test' })).toEqual({
      domain: ['contains invalid characters (valid characters: [a-z0-9\\-])'],
    });
    expect(await msg({ domain: '-x.test' })).toEqual({ domain: ['begins or ends with hyphen'] });
    expect(await msg({ domain: '123.test' })).toEqual({
      domain: ['unqualified hostname part cannot consist of numeric values only'],
    });
    expect(await msg({ domain: 'a..b' })).toEqual({
      domain: [
        'must be between 1 and 63 characters long',
        'contains invalid characters (valid characters: [a-z0-9\\-])',
        'must not contain consecutive dots',
      ],
    });
    expect(await msg({ domain: 'dot.test.' })).toEqual({ domain: ['must not end with a dot'] });
    expect(await msg({ domain: 'site.pages.acme.io' })).toEqual({ domain: ['*.pages.acme.io is restricted'] });
    expect(await msg({ domain: 'mypages.acme.io' })).toEqual({ domain: ['*.pages.acme.io is restricted'] });
    expect(await msg({ domain: 'c.test', certificate: 'not a certificate', key: ec.keyPem })).toEqual({
      certificate: ['must be a valid PEM certificate', 'misses intermediates'],
      key: ["doesn't match the certificate"],
    });
    expect(await msg({ domain: 'k.test', certificate: ec.pem, key: 'not a key' })).toEqual({
      key: ['must be a valid PEM private key', "doesn't match the certificate"],
    });
    expect(await msg({ domain: 'm.test', certificate: ec.pem, key: other.keyPem })).toEqual({
      key: ["doesn't match the certificate"],
    });
    expect(
      await msg({
        domain: 'chain.domain.test',
        certificate: chained.leaf.pem + chained.root.pem,
        key: chained.leaf.keyPem,
      }),
    ).toEqual({ certificate: ['misses intermediates'] });
    expect(await msg({ domain: 'chain.domain.test', certificate: chained.leaf.pem, key: chained.leaf.keyPem })).toEqual(
      { certificate: ['misses intermediates'] },
    );
    expect((await api(t, ROOT_TOKEN).get('/api/v4/pages/domains')).body).toHaveLength(1);
  });

  it('multipart upload: certificate and key as files (curl -F certificate=@cert.pem)', async () => {
    const p = await project();
    const res = await api(t, ROOT_TOKEN)
      .post(base(p))
      .field('domain', 'upload.test')
      .attach('certificate', Buffer.from(ec.pem), 'cert.pem')
      .attach('key', Buffer.from(ec.keyPem), 'key.pem');
    expect(res.status).toBe(201);
    expect(res.body.certificate).toMatchObject({ subject: '/CN=ssl.domain.test', certificate: ec.pem });
    const put = await api(t, ROOT_TOKEN)
      .put(`${base(p)}/upload.test`)
      .attach('certificate', Buffer.from(ec.pem), 'cert.pem');
    expect([put.status, put.body.url]).toEqual([200, 'https://upload.test']);
    const mixed = await api(t, ROOT_TOKEN)
      .post(base(p))
      .field('domain', 'mixed.test')
      .field('certificate', ec.pem)
      .attach('key', Buffer.from(ec.keyPem), 'key.pem');
    expect([mixed.status, mixed.body.url]).toEqual([201, 'https://mixed.test']);
  });

  it('multipart files only where declared, and only for a caller authenticated by header or query token', async () => {
    const p = await project();
    const anonymous = await api(t)
      .post(base(p))
      .field('domain', 'anon.test')
      .attach('certificate', Buffer.from(ec.pem), 'cert.pem');
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const query = await api(t)
      .post(`${base(p)}?private_token=${ROOT_TOKEN}`)
      .field('domain', 'q.test')
      .attach('certificate', Buffer.from(ec.pem), 'cert.pem')
      .attach('key', Buffer.from(ec.keyPem), 'key.pem');
    expect(query.status).toBe(201);
    // Undeclared file parts are ignored, as GitLab ignores undeclared parameters.
    const other = await api(t, ROOT_TOKEN)
      .post(base(p))
      .field('domain', 'o.test')
      .attach('avatar', Buffer.from('x'), 'a.png');
    expect([other.status, other.body.url]).toEqual([201, 'http://o.test']);
    const env = await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/environments`)
      .field('name', 'e')
      .attach('certificate', Buffer.from(ec.pem), 'cert.pem');
    expect([env.status, env.body.name]).toEqual([201, 'e']);
  });
});

describe('PUT /projects/:id/pages/domains/:domain (GitLab update semantics, spec 4.28)', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await project();
    await create(p, { domain: 'ssl.domain.test', certificate: ec.pem, key: ec.keyPem }).expect(201);
  });
  const put = (body: Record<string, unknown>) =>
    api(t, ROOT_TOKEN)
      .put(`${base(p)}/ssl.domain.test`)
      .send(body);
  const stored = () =>
    queryOne<{ certificate: string | null; sealed_key: string | null }>(
      t,
      'select certificate, sealed_key from pages_domains where project_id = ?',
      [p.id],
    );

  it('neither certificate nor key: both are cleared (http again)', async () => {
    const res = await put({});
    expect([res.status, res.body]).toEqual([200, { domain: 'ssl.domain.test', url: 'http://ssl.domain.test' }]);
    expect(await stored()).toEqual({ certificate: null, sealed_key: null });
  });

  it('certificate alone keeps the stored key and must match it', async () => {
    const same = await put({ certificate: ec.pem });
    expect([same.status, same.body.url]).toEqual([200, 'https://ssl.domain.test']);
    expect(TEST_SECRETS.open((await stored())!.sealed_key!, keySlot(p, 'ssl.domain.test'))).toBe(ec.keyPem);
    const foreign = await put({ certificate: other.pem });
    expect([foreign.status, foreign.body]).toEqual([400, { message: { key: ["doesn't match the certificate"] } }]);
  });

  it('key alone clears the certificate and so fails the match rule', async () => {
    expect((await put({ key: ec.keyPem })).body).toEqual({ message: { key: ["doesn't match the certificate"] } });
    expect((await stored())!.certificate).toBe(ec.pem);
  });

  it('both: replaced', async () => {
    const res = await put({ certificate: other.pem, key: other.keyPem });
    expect([res.status, res.body.certificate.subject]).toEqual([200, '/CN=other.test']);
    expect(TEST_SECRETS.open((await stored())!.sealed_key!, keySlot(p, 'ssl.domain.test'))).toBe(other.keyPem);
  });

  it('unknown domain → 404 PagesDomain Not Found; blank strings are 400', async () => {
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/nope.test`)
          .send({})
      ).body,
    ).toEqual({ message: '404 PagesDomain Not Found' });
    expect((await put({ certificate: '' })).body).toEqual({ error: 'certificate is empty' });
  });
});

describe('DELETE /projects/:id/pages/domains/:domain', () => {
  it('204 empty; then 404', async () => {
    const p = await project();
    await create(p, { domain: 'gone.test' }).expect(201);
    const res = await api(t, ROOT_TOKEN).delete(`${base(p)}/gone.test`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await api(t, ROOT_TOKEN).delete(`${base(p)}/gone.test`)).body).toEqual({
      message: '404 PagesDomain Not Found',
    });
  });
});
