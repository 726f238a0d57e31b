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
      .graphql('mutation { updateApplicationSettings(input: { signupEnabled: false }) { id } }')
      .expect(200);
    expect(res.body.errors[0]).toMatchObject({ message: '403 Forbidden', extensions: { code: 'FORBIDDEN' } });
  });

  it('updates through the same service with the same rules (BAD_USER_INPUT)', async () => {
    const ok = await api(t, ROOT_TOKEN)
      .graphql(
        'mutation { updateApplicationSettings(input: { defaultGroupVisibility: PUBLIC, jobqueueThrottlingFactor: 0.7, jobqueueThrottlingEnabled: true, jobqueueThrottlingQueus: ["q"] }) { defaultGroupVisibility jobqueueThrottlingFactor jobqueueThrottlingQueues } }',
      )
      .expect(200);
    expect(ok.body.data.updateApplicationSettings).toEqual({
      defaultGroupVisibility: 'PUBLIC',
      jobqueueThrottlingFactor: 0.7,
      jobqueueThrottlingQueues: ['q'],
    });
    expect((await api(t, ROOT_TOKEN).get(URL)).body).toMatchObject({
      default_group_visibility: 'public',
      jobqueue_throttling_factor: 0.7,
    });
    const missing = await api(t, ROOT_TOKEN)
      .graphql('mutation { updateApplicationSettings(input: { devenvEnabled: true }) { id } }')
      .expect(200);
    expect(missing.body.errors[0]).toMatchObject({
      message: 'devenv_url is missing',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const none = await api(t, ROOT_TOKEN)
      .graphql('mutation { updateApplicationSettings(input: {}) { id } }')
      .expect(200);
    expect(none.body.errors[0].message).toMatch(
      /^admin_notification_email, .* are missing, at least one parameter must be provided$/,
    );
    const model = await api(t, ROOT_TOKEN)
      .graphql('mutation { updateApplicationSettings(input: { maxAttachmentSize: 0 }) { id } }')
      .expect(200);
    expect(model.body.errors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fields: { max_attachment_size: ['must be greater than 0'] } },
    });
    const values = await api(t, ROOT_TOKEN)
      .graphql('mutation { updateApplicationSettings(input: { defaultBranchProtection: 5 }) { id } }')
      .expect(200);
    expect(values.body.errors[0].message).toBe('default_branch_protection does not have a valid value');
  });

  it('resetRunnersRegistrationToken rotates the instance token', async () => {
    const before = (await api(t, ROOT_TOKEN).get(URL)).body.runners_registration_token;
    const res = await api(t, ROOT_TOKEN)
      .graphql('mutation { resetRunnersRegistrationToken { runnersRegistrationToken } }')
      .expect(200);
    const after = res.body.data.resetRunnersRegistrationToken.runnersRegistrationToken;
    expect(after).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(after).not.toBe(before);
    expect((await api(t, ROOT_TOKEN).get(URL)).body.runners_registration_token).toBe(after);
    const user = await createUser(t);
    const denied = await api(t, user.token).graphql('mutation { resetRunnersRegistrationToken { id } }').expect(200);
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
