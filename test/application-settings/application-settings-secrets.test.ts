import request from 'supertest';
import type { Express } from 'express';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { secretBox, type UnreadableSecret } from '../../src/core/crypto/secret-box';
import { MODULES } from '../../src/modules';
import { REGISTRATION_TOKEN_SLOT } from '../../src/modules/application-settings/application-settings.secrets';
import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

/**
 * The setting credentials are sealed at rest like runner tokens, and administrators still
 * read them as GitLab shows them (the REST answers are unchanged).
 */
const t = useTestApp();

const SECRETS = {
  captcha_private_key: 'needle-captcha-6LeIxAcT',
  spamfilter_api_key: 'needle-akismet-0123',
  errortracker_dsn: 'https://needle-public:needle-secret@sentry.test/1',
  clientside_errortracker_dsn: 'https://needle-client@sentry.test/2',
};
const NEEDLES = Object.values(SECRETS);

async function rawRow(): Promise<Record<string, unknown>> {
  const [row] = (await t.orm.em.getConnection().execute('select * from application_settings where id = 1')) as Record<
    string,
    unknown
  >[];
  return row;
}

const settings = () => api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200);

describe('PUT /application/settings with credentials', () => {
  it('stores them sealed (no column holds the text) and GET shows them as sent', async () => {
    await settings();
    const put = await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ ...SECRETS, captcha_enabled: true, captcha_site_key: 'site-key' })
      .expect(200);
    expect(put.body).toMatchObject({ ...SECRETS, captcha_enabled: true, captcha_site_key: 'site-key' });
    const row = await rawRow();
    const text = JSON.stringify(row);
    for (const needle of NEEDLES) expect(text).not.toContain(needle);
    for (const name of Object.keys(SECRETS)) {
      expect(row[name]).toBeNull();
      expect(row[`${name}_sealed`]).toMatch(/^v2:/);
    }
    const get = await settings();
    expect(get.body).toMatchObject(SECRETS);
    // The same answer text for these keys as before sealing: the values exactly as sent.
    for (const [name, value] of Object.entries(SECRETS))
      expect(get.text).toContain(`"${name}":${JSON.stringify(value)}`);
    const gql = await api(t, ROOT_TOKEN).graphql(
      '{ applicationSettings { captchaPrivateKey spamfilterApiKey errortrackerDsn clientsideErrortrackerDsn } }',
    );
    expect(gql.body.data.applicationSettings).toEqual({
      captchaPrivateKey: SECRETS.captcha_private_key,
      spamfilterApiKey: SECRETS.spamfilter_api_key,
      errortrackerDsn: SECRETS.errortracker_dsn,
      clientsideErrortrackerDsn: SECRETS.clientside_errortracker_dsn,
    });
  });

  it('checks the model rules on the opened values (an enabled switch is satisfied by the stored key)', async () => {
    await api(t, ROOT_TOKEN)
      .put('/api/v4/application/settings')
      .send({ spamfilter_enabled: true, spamfilter_api_key: 'k1' })
      .expect(200);
    // Enabled needs the key: the stored (sealed) key satisfies the rule on the merged values.
    expect(
      (
        await api(t, ROOT_TOKEN)
          .put('/api/v4/application/settings')
          .send({ spamfilter_enabled: true, spamfilter_api_key: 'k2' })
      ).status,
    ).toBe(200);
    expect((await settings()).body.spamfilter_api_key).toBe('k2');
    await api(t, ROOT_TOKEN).put('/api/v4/application/settings').send({ spamfilter_enabled: false }).expect(200);
    expect((await settings()).body).toMatchObject({ spamfilter_enabled: false, spamfilter_api_key: 'k2' });
  });
});

describe('rows from before sealing', () => {
  async function legacyRow(): Promise<string> {
    await settings();
    const token = (await settings()).body.runners_registration_token as string;
    // As the previous version left it: credentials in clear, the registration token unbound (v1).
    await t.orm.em.getConnection().execute(
      `update application_settings set captcha_private_key = ?, spamfilter_api_key = ?, errortracker_dsn = ?, clientside_errortracker_dsn = ?,
         captcha_private_key_sealed = null, spamfilter_api_key_sealed = null, errortracker_dsn_sealed = null, clientside_errortracker_dsn_sealed = null,
         runners_registration_token_sealed = ? where id = 1`,
      [...NEEDLES, TEST_SECRETS.seal(token)],
    );
    return token;
  }

  it('are sealed on the first read, which answers the same values; updated_at is kept', async () => {
    const token = await legacyRow();
    const before = await rawRow();
    const res = await settings();
    expect(res.body).toMatchObject({ ...SECRETS, runners_registration_token: token });
    const row = await rawRow();
    expect(JSON.stringify(row)).not.toMatch(
      new RegExp(NEEDLES.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')),
    );
    expect(String(row.runners_registration_token_sealed)).toMatch(/^v2:/);
    expect(TEST_SECRETS.open(String(row.runners_registration_token_sealed), REGISTRATION_TOKEN_SLOT)).toBe(token);
    expect(row.updated_at).toEqual(before.updated_at);
    // Sealed once: the next read changes nothing.
    const sealed = JSON.stringify(row);
    expect((await settings()).body).toMatchObject(SECRETS);
    expect(JSON.stringify(await rawRow())).toBe(sealed);
  });

  it('are sealed once when several instances read at the same time', async () => {
    const token = await legacyRow();
    const second = await t.secondInstance();
    const reads = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        request(i % 2 ? second.app : t.app)
          .get('/api/v4/application/settings')
          .set('PRIVATE-TOKEN', ROOT_TOKEN),
      ),
    );
    for (const r of reads)
      expect([r.status, r.body.runners_registration_token, r.body.captcha_private_key]).toEqual([
        200,
        token,
        SECRETS.captcha_private_key,
      ]);
    const row = await rawRow();
    for (const name of Object.keys(SECRETS))
      expect([row[name], String(row[`${name}_sealed`]).slice(0, 3)]).toEqual([null, 'v2:']);
    expect((await settings()).body).toMatchObject(SECRETS);
  });
});

describe('a sealed credential copied to another column', () => {
  let app: Express;
  let stop: () => Promise<void>;
  const reports: UnreadableSecret[] = [];
  beforeAll(async () => {
    const secrets = secretBox(Buffer.alloc(32, 7), { onUnreadable: (e) => reports.push(e) });
    ({ app, stop } = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: 'http://gitlab.test',
      secrets,
      modules: MODULES,
    }));
  });
  afterAll(() => stop());

  it('does not open there: that setting reads as null (one warning), the others as stored', async () => {
    await api(t, ROOT_TOKEN).put('/api/v4/application/settings').send(SECRETS).expect(200);
    await t.orm.em
      .getConnection()
      .execute('update application_settings set spamfilter_api_key_sealed = captcha_private_key_sealed where id = 1');
    const res = await request(app).get('/api/v4/application/settings').set('PRIVATE-TOKEN', ROOT_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...SECRETS, spamfilter_api_key: null });
    expect(reports).toEqual([
      expect.objectContaining({ table: 'application_settings', column: 'spamfilter_api_key_sealed', row: 1 }),
    ]);
    expect(JSON.stringify(reports)).not.toContain('needle');
  });
});
