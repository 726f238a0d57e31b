import crypto from 'node:crypto';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
import { registeredMigration } from '../support/migrations';
import { createGroup, createProject, queryOne, type TestProject } from '../support/factories';
import { der, ecKey, issue, rawCertificate } from '../support/certificates';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Pages certificates under hostile input: every certificate is parsed
 * once, when saved, with OpenSSL as the gatekeeper; hostile ones are 400s, reads never parse.
 */
const t = useTestApp();
const base = (p: { id: number }) => `/api/v4/projects/${p.id}/pages/domains`;
const project = async (): Promise<TestProject> => createProject(t, { namespace: await createGroup(t) });
const create = (p: TestProject, body: Record<string, unknown>) => api(t, ROOT_TOKEN).post(base(p)).send(body);
const INVALID = 'must be a valid PEM certificate';
const p256 = ecKey('prime256v1');
const key = p256.keyPem;
const self = (o: Partial<Parameters<typeof rawCertificate>[0]> = {}) =>
  rawCertificate({ key: p256.privateKey, ...o }).pem;
/** SEQUENCE { [0] otherName { 1.2.3.4, [0] <depth SEQUENCEs> } }: a subjectAltName nesting `depth` levels. */
const deepSan = (depth: number) =>
  der.extension('2.5.29.17', der.seq(der.tlv(0xa0, der.oid('1.2.3.4'), der.tlv(0xa0, der.nested(depth)))));
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

describe('certificates that used to stop the process are refused or rendered, never thrown', () => {
  it('an empty serial number is not a certificate (OpenSSL refuses it): 400, and the list still answers', async () => {
    const p = await project();
    const res = await create(p, { domain: 'empty-serial.test', certificate: self({ serial: [] }), key });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { certificate: [INVALID, 'misses intermediates'], key: ["doesn't match the certificate"] } },
    ]);
    expect((await api(t, ROOT_TOKEN).get(base(p))).status).toBe(200);
  });

  it('a CA-issued brainpoolP256r1 leaf is accepted and its text names the curve (REST and GraphQL)', async () => {
    const p = await project();
    const leafKey = ecKey('brainpoolP256r1');
    const root = rawCertificate({
      key: p256.privateKey,
      subject: der.cn('BP Root'),
      extensions: [der.basicConstraints(true)],
    }).pem;
    const leaf = rawCertificate({
      key: p256.privateKey,
      publicKey: leafKey.publicKey,
      subject: der.cn('bp.test'),
      issuer: der.cn('BP Root'),
      serial: [9],
      extensions: [der.san('bp.test')],
    }).pem;
    const res = await create(p, { domain: 'bp.test', certificate: leaf + root, key: leafKey.keyPem });
    expect([res.status, res.body.certificate?.subject]).toEqual([201, '/CN=bp.test']);
    expect(res.body.certificate.certificate_text).toContain('                ASN1 OID: brainpoolP256r1\n');
    const one = await api(t, ROOT_TOKEN).get(`${base(p)}/bp.test`);
    const gql = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${p.id}") { pagesDomains(first: 1) { nodes { certificate { subject certificateText } } } } }`,
    );
    expect(gql.body.data.project.pagesDomains.nodes[0].certificate).toEqual({
      subject: '/CN=bp.test',
      certificateText: one.body.certificate.certificate_text,
    });
  });

  it('a subjectAltName nesting 5,000 SEQUENCEs: 400 with the cap, before any parser sees it', async () => {
    const p = await project();
    const res = await create(p, { domain: 'deep.test', certificate: self({ extensions: [deepSan(5000)] }), key });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { certificate: ['is nested too deeply (maximum ASN.1 depth is 32)'] } },
    ]);
    expect(
      (await create(p, { domain: 'shallow.test', certificate: self({ extensions: [deepSan(20)] }), key })).status,
    ).toBe(201);
  });
});

describe('PEM scanning is linear and capped', () => {
  const BEGIN = '-----BEGIN CERTIFICATE-----\n';

  it('1 MB of BEGIN lines never closed: 400 at once (JSON and multipart); 60 KB of them: not a certificate', async () => {
    const p = await project();
    const hostile = BEGIN.repeat(Math.ceil((1024 * 1024) / BEGIN.length));
    const started = process.hrtime.bigint();
    const res = await create(p, { domain: 'q.test', certificate: hostile, key });
    const elapsed = ms(started);
    expect([res.status, res.body]).toEqual([
      400,
      { message: { certificate: ['is too long (maximum is 65536 characters)'] } },
    ]);
    expect(elapsed).toBeLessThan(2000); // a linear scan stays far below this; a quadratic one does not
    const file = Buffer.from(hostile.slice(0, 1_000_000)); // multipart files: 1 MB each
    const upload = await api(t, ROOT_TOKEN)
      .post(base(p))
      .field('domain', 'q.test')
      .attach('certificate', file, 'c.pem')
      .attach('key', Buffer.from(key), 'k.pem');
    expect([upload.status, upload.body]).toEqual([
      400,
      { message: { certificate: ['is too long (maximum is 65536 characters)'] } },
    ]);
    const under = await create(p, {
      domain: 'q.test',
      certificate: BEGIN.repeat(Math.floor(60_000 / BEGIN.length)),
      key,
    });
    expect([under.status, under.body.message.certificate]).toEqual([400, [INVALID, 'misses intermediates']]);
  });

  it('at most 16 certificates in a bundle; a key over 65,536 characters is refused', async () => {
    const p = await project();
    const cert = self();
    expect((await create(p, { domain: 'sixteen.test', certificate: cert.repeat(16), key })).status).toBe(201);
    const many = await create(p, { domain: 'many.test', certificate: cert.repeat(17), key });
    expect([many.status, many.body]).toEqual([
      400,
      { message: { certificate: ['has too many certificates (maximum is 16)'] } },
    ]);
    const long = await create(p, { domain: 'long.test', certificate: cert, key: `${key}${' '.repeat(65_536)}` });
    expect([long.status, long.body]).toEqual([
      400,
      { message: { key: ['is too long (maximum is 65536 characters)'] } },
    ]);
  });
});

describe('reads return what was stored when the domain was saved', () => {
  it('a corrupted certificate column changes nothing in 20 aliases of subject/certificateText, REST or GraphQL', async () => {
    const p = await project();
    const bundle =
      self({ subject: der.cn('stored.test') }) +
      '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n'.repeat(10);
    const created = await create(p, { domain: 'stored.test', certificate: bundle, key });
    expect(created.status).toBe(201);
    const text = created.body.certificate.certificate_text;
    expect(text).toMatch(/^Certificate:\n/);
    await t.orm.em
      .getConnection()
      .execute(
        `update pages_domains set certificate = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' where domain = 'stored.test'`,
      );
    const aliases = Array.from({ length: 20 }, (_, i) => `s${i}: subject t${i}: certificateText`).join(' ');
    const started = process.hrtime.bigint();
    const gql = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${p.id}") { pagesDomains(first: 1) { nodes { certificate { ${aliases} } } } } }`,
    );
    const elapsed = ms(started);
    const cert = gql.body.data.project.pagesDomains.nodes[0].certificate;
    expect(Object.keys(cert)).toHaveLength(40);
    for (let i = 0; i < 20; i += 1) expect([cert[`s${i}`], cert[`t${i}`]]).toEqual(['/CN=stored.test', text]);
    expect(elapsed).toBeLessThan(2000); // reads parse nothing: far below this
    const rest = await api(t, ROOT_TOKEN).get(`${base(p)}/stored.test`);
    expect([rest.status, rest.body.certificate.subject, rest.body.certificate.certificate_text]).toEqual([
      200,
      '/CN=stored.test',
      text,
    ]);
  });

  it('a row whose text was never computed answers 200 with empty strings (no parsing on read)', async () => {
    const p = await project();
    await create(p, { domain: 'legacy.test', certificate: self(), key }).expect(201);
    await t.orm.em
      .getConnection()
      .execute(
        "update pages_domains set certificate_subject = null, certificate_text = null where domain = 'legacy.test'",
      );
    const res = await api(t, ROOT_TOKEN).get(`${base(p)}/legacy.test`);
    expect([res.status, res.body.certificate.subject, res.body.certificate.certificate_text]).toEqual([200, '', '']);
  });

  it('the migration backfills rows saved before it: subject, text, OpenSSL dates, lower-case domains; hostile rows get empty strings', async () => {
    const p = await project();
    const good = self({ subject: der.cn('old.test'), notBefore: der.gen('00010101000000Z') });
    const rows: [string, string][] = [
      ['Old.Test', good],
      ['serial.test', self({ serial: [] })],
      ['quadratic.test', '-----BEGIN CERTIFICATE-----\n'.repeat(40_000)],
    ];
    for (const [domain, certificate] of rows) {
      await t.orm.em
        .getConnection()
        .execute(
          "insert into pages_domains (project_id, domain, certificate, certificate_not_before, certificate_not_after) values (?, ?, ?, '1901-01-01', '2099-01-01')",
          [p.id, domain, certificate],
        );
    }
    const PagesCertificateDetails = registeredMigration('Migration20261201120000_pages_certificate_details');
    const migration = new PagesCertificateDetails(t.orm.em.getDriver() as AbstractSqlDriver, t.orm.config);
    await migration.up();
    expect(migration.getQueries()).toEqual([]);
    const read = (domain: string) =>
      queryOne<Record<string, unknown>>(
        t,
        "select domain, certificate_subject, certificate_text, to_char(certificate_not_before at time zone 'UTC', 'YYYY-MM-DD') as not_before from pages_domains where domain = ?",
        [domain],
      );
    expect(await read('old.test')).toMatchObject({
      domain: 'old.test',
      certificate_subject: '/CN=old.test',
      certificate_text: expect.stringMatching(/^Certificate:\n/),
      not_before: '0001-01-01',
    });
    expect(await read('serial.test')).toMatchObject({
      certificate_subject: '',
      certificate_text: '',
      not_before: '1901-01-01',
    });
    expect(await read('quadratic.test')).toMatchObject({ certificate_subject: '', certificate_text: '' });
    expect((await api(t, ROOT_TOKEN).get(`${base(p)}/OLD.test`)).body.certificate.subject).toBe('/CN=old.test');
  });
});

describe('rendering: 400 where the reference would fail, exact serials and dates', () => {
  it('a leaf whose issuer nests 5,000 SEQUENCEs in an extension: 400, not 500', async () => {
    const p = await project();
    const ca = ecKey('prime256v1');
    const issuer = rawCertificate({
      key: ca.privateKey,
      subject: der.cn('Deep CA'),
      extensions: [der.basicConstraints(true), deepSan(5000)],
    }).pem;
    const leaf = rawCertificate({
      key: ca.privateKey,
      publicKey: p256.publicKey,
      subject: der.cn('leaf.test'),
      issuer: der.cn('Deep CA'),
    }).pem;
    const res = await create(p, { domain: 'leaf.test', certificate: leaf + issuer, key });
    expect([res.status, res.body]).toEqual([
      400,
      { message: { certificate: ['is nested too deeply (maximum ASN.1 depth is 32)'] } },
    ]);
  });

  it.each([
    ['notAfter 99999999999999Z', { notAfter: der.gen('99999999999999Z') }],
    ['month 13', { notBefore: der.utc('241301000000Z') }],
    ['February 30', { notAfter: der.gen('20990230000000Z') }],
    ['year 0', { notBefore: der.gen('00000101000000Z') }],
  ])('%s: 400 must be a valid PEM certificate', async (_, times) => {
    const p = await project();
    const res = await create(p, { domain: 'time.test', certificate: self(times), key });
    expect([res.status, res.body.message.certificate]).toEqual([400, [INVALID, 'misses intermediates']]);
  });

  it('year 0001 is stored as year 1 (not 1901); year 9999 fits', async () => {
    const p = await project();
    const res = await create(p, {
      domain: 'ancient.test',
      certificate: self({ notBefore: der.gen('00010101000000Z'), notAfter: der.gen('00011231000000Z') }),
      key,
    });
    expect([res.status, res.body.certificate.expired]).toEqual([201, true]);
    expect(res.body.certificate.certificate_text).toContain(
      '            Not Before: Jan  1 00:00:00 1 GMT\n            Not After : Dec 31 00:00:00 1 GMT\n',
    );
    await create(p, { domain: 'far.test', certificate: self({ notAfter: der.gen('99991231235959Z') }), key }).expect(
      201,
    );
    const list = await api(t, ROOT_TOKEN).get('/api/v4/pages/domains');
    expect(list.body.map((d: { certificate_expiration: unknown }) => d.certificate_expiration)).toEqual([
      { expired: true, expiration: '0001-12-31T00:00:00.000Z' },
      { expired: false, expiration: '9999-12-31T23:59:59.000Z' },
    ]);
  });

  it('self-signed secp256k1 and explicit-parameter EC certificates are accepted, as OpenSSL accepts them', async () => {
    const p = await project();
    for (const [domain, k] of [
      ['k1.test', ecKey('secp256k1')],
      ['explicit.test', ecKey('prime256v1', 'explicit')],
      ['explicit-k1.test', ecKey('secp256k1', 'explicit')],
    ] as const) {
      const res = await create(p, {
        domain,
        certificate: rawCertificate({ key: k.privateKey, subject: der.cn(domain) }).pem,
        key: k.keyPem,
      });
      expect([domain, res.status, res.body.certificate?.subject]).toEqual([domain, 201, `/CN=${domain}`]);
    }
    const explicit = (await api(t, ROOT_TOKEN).get(`${base(p)}/explicit.test`)).body.certificate.certificate_text;
    expect(explicit).toContain('                Field Type: prime-field\n                Prime:\n');
    expect(explicit).toContain('                Cofactor:  1 (0x1)\n');
  });

  it('negative serial numbers are shown signed, as OpenSSL shows them', async () => {
    const p = await project();
    const text = async (domain: string, serial: number[]) =>
      (await create(p, { domain, certificate: self({ serial }), key })).body.certificate.certificate_text;
    expect(await text('minus-two.test', [0xfe])).toContain('        Serial Number: -2 (-0x2)\n');
    expect(await text('minus-one.test', [0xff])).toContain('        Serial Number: -1 (-0x1)\n');
    expect(await text('long.test', [0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toContain(
      '        Serial Number:\n             (Negative)7f:fe:fd:fc:fb:fa:f9:f8:f7:f7\n',
    );
  });

  it('domains are stored in lower case; GET, PUT and DELETE find them whatever the case given', async () => {
    const p = await project();
    const ec = await issue({ cn: 'mixed.test', kind: 'ec' });
    const res = await create(p, { domain: 'MiXeD.Test', certificate: ec.pem, key: ec.keyPem });
    expect([res.status, res.body.domain, res.body.url]).toEqual([201, 'mixed.test', 'https://mixed.test']);
    expect(await queryOne(t, 'select domain from pages_domains where project_id = ?', [p.id])).toEqual({
      domain: 'mixed.test',
    });
    expect((await create(p, { domain: 'MIXED.TEST' })).body).toEqual({
      message: { domain: ['has already been taken'] },
    });
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put(`${base(p)}/Mixed.TEST`)
          .send({ certificate: ec.pem })
      ).status,
    ).toBe(200);
    expect((await api(t, ROOT_TOKEN).delete(`${base(p)}/MIXED.test`)).status).toBe(204);
  });

  it('GraphQL pagesDomainCreate normalizes the domain too and stores the text once', async () => {
    const p = await project();
    const k = ecKey('secp384r1');
    const pem = rawCertificate({
      key: k.privateKey,
      subject: der.cn('g.test'),
      serial: [...crypto.randomBytes(8)].map((b, i) => (i ? b : b & 0x7f)),
    }).pem;
    const res = await api(t, ROOT_TOKEN).graphql(
      'mutation($p: ID!, $c: String!, $k: String!) { pagesDomainCreate(input: { projectId: $p, domain: "G.Test", certificate: $c, key: $k }) { pagesDomain { domain certificate { subject certificateText } } errors } }',
      { p: String(p.id), c: pem, k: k.keyPem },
    );
    expect(res.body.data.pagesDomainCreate.errors).toEqual([]);
    expect(res.body.data.pagesDomainCreate.pagesDomain).toMatchObject({
      domain: 'g.test',
      certificate: {
        subject: '/CN=g.test',
        certificateText: expect.stringContaining('ASN1 OID: secp384r1\n                NIST CURVE: P-384\n'),
      },
    });
    expect(await queryOne(t, 'select certificate_text from pages_domains where domain = ?', ['g.test'])).toEqual({
      certificate_text: res.body.data.pagesDomainCreate.pagesDomain.certificate.certificateText,
    });
  });
});
