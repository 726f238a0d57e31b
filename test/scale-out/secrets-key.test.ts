import request from 'supertest';
import type { Express } from 'express';
import { buildApp } from '../../src/app';
import { runOn, SecretsKeyMismatch, verifySecretsKey } from '../../src/core/crypto/key-check';
import { resealAll } from '../../src/core/crypto/rotate';
import { secretBox, secretsFrom } from '../../src/core/crypto/secret-box';
import { createLogger } from '../../src/core/logger';
import { sealedColumnsOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { runnersTokenSlot } from '../../src/modules/projects/project-runners-token';
import { runnerTokenSlot } from '../../src/modules/runners/runner-token';
import { createProject, createUser, queryOne } from '../support/factories';
import { issue } from '../support/certificates';
import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

/** One secrets key per database, verified at start; unreadable values never break a read; rotation. */
const t = useTestApp();
const columns = sealedColumnsOf(MODULES);
const run = () => runOn(t.orm.em.fork());
const TEST_KEY = Buffer.alloc(32, 7); // TEST_SECRETS' key
const OTHER_KEY = Buffer.alloc(32, 9);

beforeEach(async () => {
  await t.orm.em.getConnection().execute('delete from secrets_key_check');
});

describe('the secrets key check', () => {
  it('is stored by the first start, matched by the same key, refused for another key with what to do', async () => {
    expect(await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY')).toBe('stored');
    expect(await verifySecretsKey(run(), secretBox(TEST_KEY), columns, 'SECRETS_KEY')).toBe('matched');
    const other = verifySecretsKey(run(), secretBox(OTHER_KEY), columns, 'the key file /data/b/secrets.key');
    await expect(other).rejects.toThrow(SecretsKeyMismatch);
    await expect(
      verifySecretsKey(run(), secretBox(OTHER_KEY), columns, 'the key file /data/b/secrets.key'),
    ).rejects.toThrow(
      /^the key file \/data\/b\/secrets.key is not the secrets key of this database \(its key check was stored by the first instance on \d{4}-.*set SECRETS_KEY here; during a key rotation, the old key goes in SECRETS_KEY_PREVIOUS/,
    );
    // The stored check is the HMAC of a label: it does not contain the key.
    const row = await queryOne<{ key_check: string }>(t, 'select key_check from secrets_key_check');
    expect(row!.key_check).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.key_check).not.toContain(TEST_KEY.toString('hex'));
  });

  it('accepts a new key that lists the stored one as previous (a rotation), and only then', async () => {
    await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY');
    expect(await verifySecretsKey(run(), secretBox(OTHER_KEY, { previous: [TEST_KEY] }), columns, 'SECRETS_KEY')).toBe(
      'matched',
    );
    await expect(
      verifySecretsKey(run(), secretBox(OTHER_KEY, { previous: [Buffer.alloc(32, 3)] }), columns, 'SECRETS_KEY'),
    ).rejects.toThrow(SecretsKeyMismatch);
  });

  it('is not stored over existing secrets the key does not open (a database from before the check, restored next to the wrong key)', async () => {
    await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200); // seals the registration token with the test key
    await expect(verifySecretsKey(run(), secretBox(OTHER_KEY), columns, 'SECRETS_KEY')).rejects.toThrow(
      'the database holds secrets that SECRETS_KEY does not open (application_settings.runners_registration_token_sealed)',
    );
    expect(await queryOne(t, 'select 1 from secrets_key_check')).toBeUndefined();
    expect(await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY')).toBe('stored');
  });

  it('lets exactly one of several racing first starts store its key', async () => {
    const keys = [1, 2, 3, 4].map((n) => secretBox(Buffer.alloc(32, n)));
    const results = await Promise.allSettled(keys.map((box) => verifySecretsKey(run(), box, columns, 'SECRETS_KEY')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof SecretsKeyMismatch)).toHaveLength(3);
  });
});

describe('a value that does not open', () => {
  let app: Express;
  let stop: () => Promise<void>;
  const lines: { level: number; msg: string; secret?: Record<string, unknown> }[] = [];
  beforeAll(async () => {
    const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s)) });
    const secrets = secretsFrom({ secretsKey: TEST_KEY, dataDir: '/nonexistent' }, logger);
    ({ app, stop } = await buildApp({
      orm: t.orm,
      logger,
      externalUrl: 'http://gitlab.test',
      secrets,
      modules: MODULES,
    }));
  });
  afterAll(() => stop());

  const unreadableCount = async () =>
    Number(
      /^secrets_unreadable_total\{table="projects",column="runners_token"\} (\d+)$/m.exec(
        (await request(app).get('/-/metrics')).text,
      )?.[1] ?? 0,
    );

  it('is served as absent (REST) or null (GraphQL) in lists and single reads, logged and counted once, and the rest of the list answers', async () => {
    const owner = await createUser(t, { username: 'owner' });
    const good = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'good' });
    const bad = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'bad' });
    const foreign = secretBox(OTHER_KEY).seal('token-of-another-instance', runnersTokenSlot(bad.id));
    await t.orm.em.getConnection().execute('update projects set runners_token = ? where id = ?', [foreign, bad.id]);
    const before = await unreadableCount();
    lines.length = 0;

    for (let i = 0; i < 3; i += 1) {
      const list = await request(app).get('/api/v4/projects?order_by=id&sort=asc').set('PRIVATE-TOKEN', ROOT_TOKEN);
      expect(list.status).toBe(200);
      // REST leaves the key out, as for a caller who may not see it (project entity: runners_token only for Masters).
      const byPath = Object.fromEntries((list.body as { path: string }[]).map((p) => [p.path, p]));
      expect(byPath.bad).not.toHaveProperty('runners_token');
      expect(byPath.good).toHaveProperty('runners_token', good.runnersToken);
    }
    const single = await request(app).get(`/api/v4/projects/${bad.id}`).set('PRIVATE-TOKEN', ROOT_TOKEN);
    expect(single.status).toBe(200);
    expect(single.body).not.toHaveProperty('runners_token');
    expect(single.body).toHaveProperty('path', 'bad');
    const gql = await request(app)
      .post('/graphql')
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .send({ query: `{ project(id: "${bad.id}") { path runnersToken } }` });
    expect(gql.body).toEqual({ data: { project: { path: 'bad', runnersToken: null } } });

    expect(await unreadableCount()).toBe(before + 1);
    const warnings = lines.filter((l) => l.msg === 'a sealed value does not open; it is treated as absent');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      secret: { table: 'projects', column: 'runners_token', row: bad.id },
    });
    expect(JSON.stringify(lines)).not.toContain('token-of-another-instance');
  });

  it('in the settings row, leaves the registration token null and every other setting readable', async () => {
    await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200);
    const foreign = secretBox(OTHER_KEY).seal('x', {
      table: 'application_settings',
      column: 'runners_registration_token_sealed',
      row: 1,
    });
    await t.orm.em
      .getConnection()
      .execute('update application_settings set runners_registration_token_sealed = ? where id = 1', [foreign]);
    const res = await request(app).get('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.runners_registration_token).toBeNull();
    expect(res.body.default_projects_limit).toBe(100000);
  });
});

describe('key rotation (npm run secrets:rotate)', () => {
  it('re-seals every value under the new key, tokens keep working before, during and after, and the key check moves', async () => {
    await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY');
    // A runner registered under the old key, a project runners token, the settings row.
    const settings = await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200);
    const registered = await request(t.app)
      .post('/api/v4/runners')
      .send({ token: settings.body.runners_registration_token, description: 'r1' })
      .expect(201);
    const owner = await createUser(t, { username: 'rot' });
    const project = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'rot' });
    const projectToken = project.runnersToken;

    // Every instance now runs with the new key, the old one as previous.
    const rotating = secretBox(OTHER_KEY, { previous: [TEST_KEY] });
    const { app: during, stop } = await buildApp({
      orm: t.orm,
      logger: createLogger('silent'),
      externalUrl: 'http://gitlab.test',
      secrets: rotating,
      modules: MODULES,
    });
    try {
      await request(during).post('/api/v4/runners/verify').send({ token: registered.body.token }).expect(200);
      await request(during).post('/api/v4/runners').send({ token: projectToken, description: 'r2' }).expect(201);
      expect(
        (await request(during).get('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN)).body
          .runners_registration_token,
      ).toBe(settings.body.runners_registration_token);

      const report = await resealAll(run(), rotating, columns, { batch: 1 });
      expect(report.unreadable).toEqual([]);
      expect(report.resealed['ci_runners.token']).toBe(2);
      expect(report.resealed['projects.runners_token']).toBe(1);
      expect(report.resealed['application_settings.runners_registration_token_sealed']).toBe(1);
    } finally {
      await stop();
    }

    // After the rotation the new key alone opens everything and finds every token.
    const newOnly = secretBox(OTHER_KEY);
    expect(await verifySecretsKey(run(), newOnly, columns, 'SECRETS_KEY')).toBe('matched');
    await expect(verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY')).rejects.toThrow(SecretsKeyMismatch);
    const runner = await queryOne<{ id: number; token: string }>(t, 'select id, token from ci_runners where id = ?', [
      registered.body.id,
    ]);
    expect(runner!.token).toMatch(/^v2:/);
    expect(newOnly.open(runner!.token, runnerTokenSlot(runner!.id))).toBe(registered.body.token);
    const { app: after, stop: stopAfter } = await buildApp({
      orm: t.orm,
      logger: createLogger('silent'),
      externalUrl: 'http://gitlab.test',
      secrets: newOnly,
      modules: MODULES,
    });
    try {
      await request(after).post('/api/v4/runners/verify').send({ token: registered.body.token }).expect(200);
      await request(after)
        .post('/api/v4/runners')
        .send({ token: settings.body.runners_registration_token, description: 'r3' })
        .expect(201);
      await request(after).post('/api/v4/runners').send({ token: projectToken, description: 'r4' }).expect(201);
      expect(
        (await request(after).get(`/api/v4/projects/${project.id}`).set('PRIVATE-TOKEN', ROOT_TOKEN)).body
          .runners_token,
      ).toBe(projectToken);
    } finally {
      await stopAfter();
    }
  });

  it('re-seals a value of every column a module declares sealed (runners, projects, settings secrets, pages keys, hook tokens), each opening for its slot under the new key alone', async () => {
    // One value per declared column, written through the API (so sealed exactly as the service seals).
    const settings = await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200);
    await request(t.app)
      .post('/api/v4/runners')
      .send({ token: settings.body.runners_registration_token, description: 'r1' })
      .expect(201);
    const owner = await createUser(t, { username: 'every' });
    const project = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'every' });
    await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({
        spamfilter_enabled: true,
        spamfilter_api_key: 'spam-key',
        clientside_errortracker_enabled: true,
        clientside_errortracker_dsn: 'https://k@errors.test/1',
        captcha_enabled: true,
        captcha_site_key: 'site',
        captcha_private_key: 'captcha-secret',
        errortracker_enabled: true,
        errortracker_dsn: 'https://k@errors.test/2',
        allow_local_requests_from_system_hooks: true,
      })
      .expect(200);
    const cert = await issue({ cn: 'every.domain.test', kind: 'ec' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${project.id}/pages/domains`)
      .send({ domain: 'Every.Domain.test', certificate: cert.pem, key: cert.keyPem })
      .expect(201);
    await api(t, ROOT_TOKEN)
      .post('/api/v4/hooks')
      .send({ url: 'http://127.0.0.1:9/in', token: 'hook-secret' })
      .expect(201);

    const values = async (c: (typeof columns)[number]) =>
      (await t.orm.em
        .getConnection()
        .execute(
          `select (${c.rowKey})::text as row, "${c.column}" as sealed from "${c.table}" where "${c.column}" is not null`,
        )) as { row: string; sealed: string }[];
    const plain = new Map<string, string[]>();
    for (const c of columns) {
      const rows = await values(c);
      if (rows.length === 0)
        throw new Error(
          `no value in ${c.table}.${c.column}: write one above (this test covers every declared sealed column)`,
        );
      plain.set(
        `${c.table}.${c.column}`,
        rows.map((r) => TEST_SECRETS.open(r.sealed, { table: c.table, column: c.column, row: r.row })),
      );
    }

    const report = await resealAll(run(), secretBox(OTHER_KEY, { previous: [TEST_KEY] }), columns);
    expect(report.unreadable).toEqual([]);
    const newOnly = secretBox(OTHER_KEY);
    for (const c of columns) {
      const name = `${c.table}.${c.column}`;
      const rows = await values(c);
      expect({ name, resealed: report.resealed[name] }).toEqual({ name, resealed: rows.length });
      for (const [i, r] of rows.entries()) {
        const slot = { table: c.table, column: c.column, row: r.row };
        expect({ name, plain: newOnly.open(r.sealed, slot) }).toEqual({ name, plain: plain.get(name)![i] });
        expect(() => TEST_SECRETS.open(r.sealed, slot)).toThrow();
      }
    }
    expect(plain.get('system_hooks.token_sealed')).toEqual(['hook-secret']);
    expect(plain.get('application_settings.captcha_private_key_sealed')).toEqual(['captcha-secret']);
    expect(plain.get('pages_domains.sealed_key')).toEqual([cert.keyPem]);
  });

  it('leaves values no configured key opens, reports them and keeps the key check', async () => {
    await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY');
    const owner = await createUser(t, { username: 'lost' });
    const project = await createProject(t, { namespace: { id: owner.namespaceId }, path: 'lost' });
    const foreign = secretBox(Buffer.alloc(32, 5)).seal('t', runnersTokenSlot(project.id));
    await t.orm.em.getConnection().execute('update projects set runners_token = ? where id = ?', [foreign, project.id]);
    const report = await resealAll(run(), secretBox(OTHER_KEY, { previous: [TEST_KEY] }), columns);
    expect(report.unreadable).toEqual([{ table: 'projects', column: 'runners_token', row: String(project.id) }]);
    expect(
      (await queryOne<{ runners_token: string }>(t, 'select runners_token from projects where id = ?', [project.id]))!
        .runners_token,
    ).toBe(foreign);
    expect(await verifySecretsKey(run(), TEST_SECRETS, columns, 'SECRETS_KEY')).toBe('matched');
  });
});
