import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createUser } from '../support/factories';

const t = useTestApp();
const URL = '/api/v4/application/settings';
const FIELDS = `id defaultProjectVisibility defaultProjectsLimit restrictedVisibilityLevels pollingIntervalMultiplier jobqueueThrottlingFactor
  domainWhitelist importSources signinEnabled passwordAuthenticationEnabled passwordAuthenticationEnabledForWeb runnersRegistrationToken
  enabledGitAccessProtocol performanceBarEnabled createdAt updatedAt`;

describe('GraphQL applicationSettings', () => {
  it('shows the same values as REST (parity)', async () => {
    await api(t, ROOT_TOKEN)
      .put(URL)
      .send({
        default_project_visibility: 'internal',
        default_projects_limit: 9,
        restricted_visibility_levels: ['public'],
        polling_interval_multiplier: 0.3,
        domain_whitelist: 'a.example, b.example',
        import_sources: ['git'],
        signin_enabled: false,
      })
      .expect(200);
    const rest = (await api(t, ROOT_TOKEN).get(URL).expect(200)).body;
    const gql = await api(t, ROOT_TOKEN).graphql(`{ applicationSettings { ${FIELDS} } }`).expect(200);
    const s = gql.body.data.applicationSettings;
    expect(s).toEqual({
      id: 1,
      defaultProjectVisibility: 'INTERNAL',
      defaultProjectsLimit: rest.default_projects_limit,
      restrictedVisibilityLevels: ['PUBLIC'],
      pollingIntervalMultiplier: rest.polling_interval_multiplier,
      jobqueueThrottlingFactor: null,
      domainWhitelist: rest.domain_whitelist,
      importSources: ['git'],
      signinEnabled: false,
      passwordAuthenticationEnabled: false,
      passwordAuthenticationEnabledForWeb: false,
      runnersRegistrationToken: rest.runners_registration_token,
      enabledGitAccessProtocol: null,
      performanceBarEnabled: false,
      createdAt: rest.created_at,
      updatedAt: rest.updated_at,
    });
  });

  it('answers anonymous callers UNAUTHENTICATED and users FORBIDDEN', async () => {
    const user = await createUser(t);
    const anon = await api(t).graphql('{ applicationSettings { id } }').expect(200);
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const res = await api(t, user.token)
      .graphql(
        'mutation { applicationSettingsUpdate(input: { signupEnabled: false }) { applicationSettings { id } errors } }',
      )
      .expect(200);
    expect(res.body.errors[0]).toMatchObject({ message: '403 Forbidden', extensions: { code: 'FORBIDDEN' } });
  });

  it('updates through the same service with the same rules (payload errors)', async () => {
    const ok = await api(t, ROOT_TOKEN)
      .graphql(
        'mutation { applicationSettingsUpdate(input: { defaultGroupVisibility: PUBLIC, jobqueueThrottlingFactor: 0.7, jobqueueThrottlingEnabled: true, jobqueueThrottlingQueues: ["q"] }) { applicationSettings { defaultGroupVisibility jobqueueThrottlingFactor jobqueueThrottlingQueues } errors } }',
      )
      .expect(200);
    expect(ok.body.data.applicationSettingsUpdate).toEqual({
      applicationSettings: {
        defaultGroupVisibility: 'PUBLIC',
        jobqueueThrottlingFactor: 0.7,
        jobqueueThrottlingQueues: ['q'],
      },
      errors: [],
    });
    expect((await api(t, ROOT_TOKEN).get(URL)).body).toMatchObject({
      default_group_visibility: 'public',
      jobqueue_throttling_factor: 0.7,
    });
    const missing = await api(t, ROOT_TOKEN)
      .graphql(
        'mutation { applicationSettingsUpdate(input: { devenvEnabled: true }) { applicationSettings { id } errors } }',
      )
      .expect(200);
    expect(missing.body.errors).toBeUndefined();
    expect(missing.body.data.applicationSettingsUpdate).toEqual({
      applicationSettings: null,
      errors: ['devenv_url is missing'],
    });
    const none = await api(t, ROOT_TOKEN)
      .graphql('mutation { applicationSettingsUpdate(input: {}) { applicationSettings { id } errors } }')
      .expect(200);
    expect(none.body.data.applicationSettingsUpdate.applicationSettings).toBeNull();
    expect(none.body.data.applicationSettingsUpdate.errors).toEqual([
      expect.stringMatching(/^admin_notification_email, .* are missing, at least one parameter must be provided$/),
    ]);
    const model = await api(t, ROOT_TOKEN)
      .graphql(
        'mutation { applicationSettingsUpdate(input: { maxAttachmentSize: 0 }) { applicationSettings { id } errors } }',
      )
      .expect(200);
    expect(model.body.data.applicationSettingsUpdate).toEqual({
      applicationSettings: null,
      errors: ['Max attachment size must be greater than 0'],
    });
    const values = await api(t, ROOT_TOKEN)
      .graphql(
        'mutation { applicationSettingsUpdate(input: { defaultBranchProtection: 5 }) { applicationSettings { id } errors } }',
      )
      .expect(200);
    expect(values.body.data.applicationSettingsUpdate.errors).toEqual([
      'default_branch_protection does not have a valid value',
    ]);
  });

  it('runnersRegistrationTokenReset rotates the instance token', async () => {
    const before = (await api(t, ROOT_TOKEN).get(URL)).body.runners_registration_token;
    const res = await api(t, ROOT_TOKEN)
      .graphql('mutation { runnersRegistrationTokenReset(input: { type: INSTANCE_TYPE }) { token errors } }')
      .expect(200);
    expect(res.body.data.runnersRegistrationTokenReset.errors).toEqual([]);
    const after = res.body.data.runnersRegistrationTokenReset.token;
    expect(after).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(after).not.toBe(before);
    expect((await api(t, ROOT_TOKEN).get(URL)).body.runners_registration_token).toBe(after);
    const user = await createUser(t);
    const denied = await api(t, user.token)
      .graphql('mutation { runnersRegistrationTokenReset(input: { type: INSTANCE_TYPE }) { token } }')
      .expect(200);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
