import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { ctxFactory } from '../../src/core/context/request-ctx';
import { loaderFactory } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { matchesRunnersRegistrationToken } from '../../src/modules/application-settings';
import { sqlRows } from '../../src/core/db/sql';
import { uncachedSharedCache } from '../../src/core/db/shared-cache';
import { STORED_SETTINGS } from '../../src/modules/application-settings/application-settings.catalogue';
import { ensureRow } from '../../src/modules/application-settings/application-settings.store';
import { REGISTRATION_TOKEN_SLOT } from '../../src/modules/application-settings/application-settings.secrets';

const t = useTestApp();
const newCtx = ctxFactory(loaderFactory(MODULES));
const ctx = () =>
  newCtx({
    em: t.orm.em.fork(),
    user: null,
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    cache: uncachedSharedCache(),
  });

async function storedToken(): Promise<string> {
  const [row] = await sqlRows<{ sealed: string }>(
    t.orm.em.fork(),
    'select runners_registration_token_sealed as sealed from application_settings where id = 1',
  );
  return TEST_SECRETS.open(row.sealed, REGISTRATION_TOKEN_SLOT);
}

describe('matchesRunnersRegistrationToken', () => {
  it('is false before the settings row exists', async () => {
    expect(await matchesRunnersRegistrationToken(ctx(), 'anything')).toBe(false);
  });

  it('matches the stored token only', async () => {
    await ensureRow(t.orm.em.fork(), TEST_SECRETS, new Date());
    const token = await storedToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await matchesRunnersRegistrationToken(ctx(), token)).toBe(true);
    expect(await matchesRunnersRegistrationToken(ctx(), `${token}x`)).toBe(false);
    expect(await matchesRunnersRegistrationToken(ctx(), '')).toBe(false);
  });

  it('stores the token sealed, never in clear', async () => {
    await ensureRow(t.orm.em.fork(), TEST_SECRETS, new Date());
    const token = await storedToken();
    const rows = await sqlRows(t.orm.em.fork(), 'select * from application_settings');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('stops matching the old token after runnersRegistrationTokenReset', async () => {
    const old = (await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200)).body
      .runners_registration_token;
    expect(await matchesRunnersRegistrationToken(ctx(), old)).toBe(true);
    const res = await api(t, ROOT_TOKEN)
      .graphql('mutation { runnersRegistrationTokenReset(input: { type: INSTANCE_TYPE }) { token } }')
      .expect(200);
    const fresh = res.body.data.runnersRegistrationTokenReset.token;
    expect(await matchesRunnersRegistrationToken(ctx(), old)).toBe(false);
    expect(await matchesRunnersRegistrationToken(ctx(), fresh)).toBe(true);
  });
});

describe('application_settings table', () => {
  it('has exactly one column per stored catalogue entry besides id, token and timestamps', async () => {
    const cols = await sqlRows<{ column_name: string }>(
      t.orm.em.fork(),
      `select column_name from information_schema.columns where table_name = 'application_settings'`,
    );
    // Credentials also have their sealed column (the clear one holds only leftovers from before sealing).
    const sealed = [
      'captcha_private_key_sealed',
      'spamfilter_api_key_sealed',
      'errortracker_dsn_sealed',
      'clientside_errortracker_dsn_sealed',
    ];
    const expected = [
      ...STORED_SETTINGS.map((s) => s.name),
      ...sealed,
      'id',
      'runners_registration_token_sealed',
      'runners_registration_token_digest',
      'created_at',
      'updated_at',
    ];
    expect(cols.map((c) => c.column_name).sort()).toEqual(expected.sort());
  });
});

describe('POST /runners/reset_registration_token', () => {
  it('gives administrators a new instance token (GitLab 201 {token, token_expires_at}); the old one stops registering', async () => {
    const before = (await api(t, ROOT_TOKEN).get('/api/v4/application/settings').expect(200)).body
      .runners_registration_token;
    await api(t, before).post('/api/v4/runners/reset_registration_token').expect(401);
    const reset = await api(t, ROOT_TOKEN).post('/api/v4/runners/reset_registration_token').expect(201);
    expect(reset.body).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/), token_expires_at: null });
    expect(reset.body.token).not.toBe(before);
    expect(await storedToken()).toBe(reset.body.token);
    await api(t).post('/api/v4/runners').send({ token: before }).expect(403);
    expect((await api(t).post('/api/v4/runners').send({ token: reset.body.token }).expect(201)).body.token).toEqual(
      expect.any(String),
    );
  });
});
