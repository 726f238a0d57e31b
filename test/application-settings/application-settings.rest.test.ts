import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createUser } from '../support/factories';
import { keys } from '../support/keys';

const t = useTestApp();
const URL = '/api/v4/application/settings';

/** GitLab 10.3's rate-limit settings (lib/api/settings.rb of 10.3), after unique_ips_limit_* as in its entity. */
const THROTTLE_KEYS = [
  'throttle_unauthenticated_enabled',
  'throttle_unauthenticated_requests_per_period',
  'throttle_unauthenticated_period_in_seconds',
  'throttle_authenticated_api_enabled',
  'throttle_authenticated_api_requests_per_period',
  'throttle_authenticated_api_period_in_seconds',
  'throttle_authenticated_web_enabled',
  'throttle_authenticated_web_requests_per_period',
  'throttle_authenticated_web_period_in_seconds',
];

/** GitLab 10.3 settings the spec's table does not list (docs/gitlab-10.3-routes.md, "Application settings"). */
const KEYS_10_3 = [
  'auto_devops_enabled',
  'gitaly_timeout_default',
  'gitaly_timeout_medium',
  'gitaly_timeout_fast',
  'hashed_storage_enabled',
  'help_page_text',
];

/** spec 2.5 / 4.18: id, timestamps, every attribute of the 4.18 table, GitLab's legacy aliases, the runner token (and the throttles above). */
const SETTINGS_KEYS = [
  'admin_notification_email',
  'after_sign_out_path',
  'after_sign_up_text',
  'allow_local_requests_from_system_hooks',
  'spamfilter_api_key',
  'spamfilter_enabled',
  'circuitbreaker_access_retries',
  'circuitbreaker_check_interval',
  'circuitbreaker_failure_count_threshold',
  'circuitbreaker_failure_reset_time',
  'circuitbreaker_storage_timeout',
  'clientside_errortracker_dsn',
  'clientside_errortracker_enabled',
  'container_registry_token_expire_delay',
  'default_artifacts_expire_in',
  'default_branch_protection',
  'default_group_visibility',
  'default_project_visibility',
  'default_projects_limit',
  'default_snippet_visibility',
  'disabled_oauth_sign_in_sources',
  'domain_blacklist_enabled',
  'domain_blacklist',
  'domain_whitelist',
  'dsa_key_restriction',
  'ecdsa_key_restriction',
  'ed25519_key_restriction',
  'email_author_in_body',
  'enabled_git_access_protocol',
  'avatar_enabled',
  'help_page_hide_commercial_content',
  'help_page_support_url',
  'home_page_url',
  'housekeeping_bitmaps_enabled',
  'housekeeping_enabled',
  'housekeeping_full_repack_period',
  'housekeeping_gc_period',
  'housekeeping_incremental_repack_period',
  'html_emails_enabled',
  'import_sources',
  'devenv_enabled',
  'devenv_url',
  'max_artifacts_size',
  'max_attachment_size',
  'max_pages_size',
  'metrics_enabled',
  'metrics_host',
  'metrics_method_call_threshold',
  'metrics_packet_size',
  'metrics_pool_size',
  'metrics_port',
  'metrics_sample_interval',
  'metrics_timeout',
  'password_authentication_enabled_for_web',
  'password_authentication_enabled_for_git',
  'performance_bar_allowed_group_id',
  'performance_bar_enabled',
  'diagram_enabled',
  'diagram_url',
  'polling_interval_multiplier',
  'project_export_enabled',
  'monitoring_metrics_enabled',
  'captcha_enabled',
  'captcha_private_key',
  'captcha_site_key',
  'repository_checks_enabled',
  'repository_storages',
  'require_two_factor_authentication',
  'restricted_visibility_levels',
  'rsa_key_restriction',
  'send_user_confirmation_email',
  'errortracker_dsn',
  'errortracker_enabled',
  'session_expire_delay',
  'shared_runners_enabled',
  'shared_runners_text',
  'jobqueue_throttling_enabled',
  'jobqueue_throttling_factor',
  'jobqueue_throttling_queues',
  'sign_in_text',
  'signup_enabled',
  'terminal_max_session_time',
  'two_factor_grace_period',
  'unique_ips_limit_enabled',
  'unique_ips_limit_per_user',
  'unique_ips_limit_time_window',
  ...THROTTLE_KEYS,
  ...KEYS_10_3,
  'usage_ping_enabled',
  'user_default_external',
  'user_oauth_applications',
  'version_check_enabled',
];
const RESPONSE_KEYS = [
  ...SETTINGS_KEYS,
  'id',
  'created_at',
  'updated_at',
  'password_authentication_enabled',
  'signin_enabled',
  'runners_registration_token',
].sort();

/** Defaults of a fresh instance (gitlab-behaviour of the reference, spec 4.18 notes). */
const DEFAULTS = {
  id: 1,
  admin_notification_email: null,
  after_sign_out_path: null,
  after_sign_up_text: null,
  allow_local_requests_from_system_hooks: false,
  spamfilter_api_key: null,
  spamfilter_enabled: false,
  circuitbreaker_access_retries: 3,
  circuitbreaker_check_interval: 1,
  circuitbreaker_failure_count_threshold: 3,
  circuitbreaker_failure_reset_time: 1800,
  circuitbreaker_storage_timeout: 15,
  clientside_errortracker_dsn: null,
  clientside_errortracker_enabled: false,
  container_registry_token_expire_delay: 5,
  default_artifacts_expire_in: '30 days',
  default_branch_protection: 2,
  default_group_visibility: 'private',
  default_project_visibility: 'private',
  default_projects_limit: 100000,
  default_snippet_visibility: 'private',
  disabled_oauth_sign_in_sources: [],
  domain_blacklist_enabled: false,
  domain_blacklist: [],
  domain_whitelist: null,
  dsa_key_restriction: 0,
  ecdsa_key_restriction: 0,
  ed25519_key_restriction: 0,
  email_author_in_body: false,
  enabled_git_access_protocol: null,
  avatar_enabled: true,
  help_page_hide_commercial_content: false,
  help_page_support_url: null,
  home_page_url: null,
  housekeeping_bitmaps_enabled: true,
  housekeeping_enabled: true,
  housekeeping_full_repack_period: 50,
  housekeeping_gc_period: 200,
  housekeeping_incremental_repack_period: 10,
  html_emails_enabled: true,
  import_sources: [
    'github',
    'bitbucket',
    'gitlab',
    'google_code',
    'fogbugz',
    'git',
    'gitlab_project',
    'gitea',
    'manifest',
  ],
  devenv_enabled: false,
  devenv_url: null,
  max_artifacts_size: 100,
  max_attachment_size: 10,
  max_pages_size: 100,
  metrics_enabled: false,
  metrics_host: 'localhost',
  metrics_method_call_threshold: 10,
  metrics_packet_size: 1,
  metrics_pool_size: 16,
  metrics_port: 8089,
  metrics_sample_interval: 15,
  metrics_timeout: 10,
  password_authentication_enabled_for_web: true,
  password_authentication_enabled_for_git: true,
  performance_bar_allowed_group_id: null,
  performance_bar_enabled: false,
  diagram_enabled: false,
  diagram_url: null,
  polling_interval_multiplier: 1,
  project_export_enabled: true,
  monitoring_metrics_enabled: false,
  captcha_enabled: false,
  captcha_private_key: null,
  captcha_site_key: null,
  repository_checks_enabled: true,
  repository_storages: ['default'],
  require_two_factor_authentication: false,
  restricted_visibility_levels: null,
  rsa_key_restriction: 0,
  send_user_confirmation_email: false,
  errortracker_dsn: null,
  errortracker_enabled: false,
  session_expire_delay: 10080,
  shared_runners_enabled: true,
  shared_runners_text: null,
  jobqueue_throttling_enabled: false,
  jobqueue_throttling_factor: null,
  jobqueue_throttling_queues: [],
  sign_in_text: null,
  signup_enabled: true,
  terminal_max_session_time: 0,
  two_factor_grace_period: 48,
  unique_ips_limit_enabled: false,
  unique_ips_limit_per_user: 10,
  unique_ips_limit_time_window: 3600,
  usage_ping_enabled: true,
  throttle_unauthenticated_enabled: false,
  throttle_unauthenticated_requests_per_period: 3600,
  throttle_unauthenticated_period_in_seconds: 3600,
  throttle_authenticated_api_enabled: false,
  throttle_authenticated_api_requests_per_period: 3600,
  throttle_authenticated_api_period_in_seconds: 3600,
  throttle_authenticated_web_enabled: false,
  throttle_authenticated_web_requests_per_period: 3600,
  throttle_authenticated_web_period_in_seconds: 3600,
  auto_devops_enabled: false,
  gitaly_timeout_default: 55,
  gitaly_timeout_medium: 30,
  gitaly_timeout_fast: 10,
  hashed_storage_enabled: false,
  help_page_text: null,
  user_default_external: false,
  user_oauth_applications: true,
  version_check_enabled: true,
  password_authentication_enabled: true,
  signin_enabled: true,
};

const put = (body: Record<string, unknown> | string) => api(t, ROOT_TOKEN).put(URL).send(body);

describe('GET /application/settings', () => {
  it('returns 401 for anonymous callers and 403 for non-administrators', async () => {
    const user = await createUser(t);
    expect((await api(t).get(URL).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, user.token).get(URL).expect(403)).body).toEqual({ message: '403 Forbidden' });
  });

  it('returns the defaults of a fresh instance with the exact key set', async () => {
    const res = await api(t, ROOT_TOKEN).get(URL).expect(200).expect('Content-Type', 'application/json');
    expect(keys(res.body)).toEqual(RESPONSE_KEYS);
    expect(res.body).toMatchObject(DEFAULTS);
    expect(res.body.runners_registration_token).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('creates one row for concurrent first requests', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => api(t, ROOT_TOKEN).get(URL)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.runners_registration_token)).size).toBe(1);
    const rows = await t.orm.em.getConnection().execute('select count(*)::int as n from application_settings');
    expect(rows[0].n).toBe(1);
  });
});

describe('PUT /application/settings', () => {
  it('returns 401/403 before validating parameters', async () => {
    const user = await createUser(t);
    expect((await api(t).put(URL).send({}).expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect((await api(t, user.token).put(URL).send({ default_branch_protection: 9 }).expect(403)).body).toEqual({
      message: '403 Forbidden',
    });
  });

  it('requires at least one known setting and ignores unknown ones', async () => {
    const res = await put({ unknown_attribute: 'x' }).expect(400);
    expect(res.body).toEqual({
      error: `${SETTINGS_KEYS.join(', ')} are missing, at least one parameter must be provided`,
    });
  });

  it('stores the sent settings and answers the whole object (form body, persisted)', async () => {
    const res = await put(
      'default_projects_limit=42&signup_enabled=false&after_sign_up_text=Welcome&default_branch_protection=1&max_pages_size=5',
    ).expect(200);
    expect(keys(res.body)).toEqual(RESPONSE_KEYS);
    expect(res.body).toMatchObject({
      default_projects_limit: 42,
      signup_enabled: false,
      after_sign_up_text: 'Welcome',
      default_branch_protection: 1,
      max_pages_size: 5,
    });
    const again = await api(t, ROOT_TOKEN).get(URL).expect(200);
    expect(again.body).toMatchObject({
      default_projects_limit: 42,
      signup_enabled: false,
      after_sign_up_text: 'Welcome',
      default_branch_protection: 1,
    });
    expect(Date.parse(again.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(again.body.created_at));
  });

  it('rejects values outside the allowed sets (framework level)', async () => {
    expect((await put({ default_branch_protection: 3 }).expect(400)).body).toEqual({
      error: 'default_branch_protection does not have a valid value',
    });
    expect((await put({ default_project_visibility: 'secret' }).expect(400)).body).toEqual({
      error: 'default_project_visibility does not have a valid value',
    });
    expect((await put({ rsa_key_restriction: 512 }).expect(400)).body).toEqual({
      error: 'rsa_key_restriction does not have a valid value',
    });
    expect((await put({ ecdsa_key_restriction: 1024 }).expect(400)).body).toEqual({
      error: 'ecdsa_key_restriction does not have a valid value',
    });
    expect((await put({ enabled_git_access_protocol: 'ftp' }).expect(400)).body).toEqual({
      error: 'enabled_git_access_protocol does not have a valid value',
    });
    expect((await put({ import_sources: ['git', 'svn'] }).expect(400)).body).toEqual({
      error: 'import_sources does not have a valid value',
    });
    expect((await put({ default_projects_limit: 'many' }).expect(400)).body).toEqual({
      error: 'default_projects_limit is invalid',
    });
    expect((await put({ signup_enabled: 'maybe' }).expect(400)).body).toEqual({ error: 'signup_enabled is invalid' });
  });

  it('requires the parameters of a switch sent true, in GitLab order', async () => {
    expect((await put({ devenv_enabled: true }).expect(400)).body).toEqual({ error: 'devenv_url is missing' });
    expect((await put({ captcha_enabled: 'true' }).expect(400)).body).toEqual({
      error: 'captcha_site_key is missing, captcha_private_key is missing',
    });
    expect((await put({ metrics_enabled: true, metrics_host: 'h' }).expect(400)).body).toEqual({
      error:
        'metrics_port is missing, metrics_pool_size is missing, metrics_timeout is missing, metrics_method_call_threshold is missing, ' +
        'metrics_sample_interval is missing, metrics_packet_size is missing',
    });
    expect((await put({ housekeeping_enabled: true }).expect(400)).body).toEqual({
      error:
        'housekeeping_bitmaps_enabled is missing, housekeeping_incremental_repack_period is missing, housekeeping_full_repack_period is missing, housekeeping_gc_period is missing',
    });
    expect((await put({ jobqueue_throttling_enabled: true }).expect(400)).body).toEqual({
      error: 'jobqueue_throttling_queues is missing, jobqueue_throttling_factor is missing',
    });
    expect((await put({ shared_runners_enabled: true, diagram_enabled: true }).expect(400)).body).toEqual({
      error: 'shared_runners_text is missing, diagram_url is missing',
    });
    for (const [flag, need] of [
      ['domain_blacklist_enabled', 'domain_blacklist'],
      ['require_two_factor_authentication', 'two_factor_grace_period'],
      ['spamfilter_enabled', 'spamfilter_api_key'],
      ['errortracker_enabled', 'errortracker_dsn'],
      ['clientside_errortracker_enabled', 'clientside_errortracker_dsn'],
    ]) {
      expect((await put({ [flag]: true }).expect(400)).body).toEqual({ error: `${need} is missing` });
    }
  });

  it('does not require anything when a switch is sent false', async () => {
    const res = await put({ devenv_enabled: false, metrics_enabled: 'false' }).expect(200);
    expect(res.body).toMatchObject({ devenv_enabled: false, metrics_enabled: false });
  });

  it('checks model rules on the merged values (a switch whose value is already stored is fine)', async () => {
    await put({ devenv_url: 'https://devenv.example.com' }).expect(200);
    expect((await put({ devenv_enabled: true }).expect(400)).body).toEqual({ error: 'devenv_url is missing' }); // framework rule: same request
    await put({ diagram_url: 'https://plantuml.example.com' }).expect(200);
    const ok = await put({ diagram_enabled: true, diagram_url: 'https://plantuml.example.com' }).expect(200);
    expect(ok.body).toMatchObject({ diagram_enabled: true, diagram_url: 'https://plantuml.example.com' });
    expect((await put({ diagram_url: '' }).expect(400)).body).toEqual({ message: { diagram_url: ["can't be blank"] } });
    await put({ unique_ips_limit_per_user: 0 }).expect(200); // not checked while the limit is off
    expect((await put({ unique_ips_limit_enabled: true }).expect(400)).body).toEqual({
      message: { unique_ips_limit_per_user: ['must be greater than or equal to 1'] },
    });
  });

  it("answers each model rule with GitLab's message", async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ max_attachment_size: 0 }, { max_attachment_size: ['must be greater than 0'] }],
      [
        { max_artifacts_size: -1, container_registry_token_expire_delay: 0 },
        {
          container_registry_token_expire_delay: ['must be greater than 0'],
          max_artifacts_size: ['must be greater than 0'],
        },
      ],
      [{ session_expire_delay: -5 }, { session_expire_delay: ['must be greater than or equal to 0'] }],
      [{ home_page_url: 'not a url' }, { home_page_url: ['must be a valid URL'] }],
      [{ after_sign_out_path: 'ftp://x' }, { after_sign_out_path: ['must be a valid URL'] }],
      [{ admin_notification_email: 'nope' }, { admin_notification_email: ['is invalid'] }],
      [{ default_artifacts_expire_in: 'soon' }, { default_artifacts_expire_in: ['is not a correct duration'] }],
      [
        { housekeeping_full_repack_period: 5 },
        { housekeeping_full_repack_period: ['must be greater than or equal to 10'] },
      ],
      [{ housekeeping_gc_period: 20 }, { housekeeping_gc_period: ['must be greater than or equal to 50'] }],
      [
        { repository_storages: ['default', 'other', 'third'] },
        { repository_storages: ["can't include: other, third"] },
      ],
      [
        { restricted_visibility_levels: ['public', 'secret'] },
        { restricted_visibility_levels: ["'secret' is not a valid visibility level"] },
      ],
      [
        { disabled_oauth_sign_in_sources: ['github'] },
        { disabled_oauth_sign_in_sources: ["'github' is not an OAuth sign-in source"] },
      ],
      [{ polling_interval_multiplier: -1 }, { polling_interval_multiplier: ['must be greater than or equal to 0'] }],
      [
        { terminal_max_session_time: -1, two_factor_grace_period: -1 },
        {
          terminal_max_session_time: ['must be greater than or equal to 0'],
          two_factor_grace_period: ['must be greater than or equal to 0'],
        },
      ],
      [
        { circuitbreaker_access_retries: 0, circuitbreaker_check_interval: -1 },
        {
          circuitbreaker_access_retries: ['must be greater than or equal to 1'],
          circuitbreaker_check_interval: ['must be greater than or equal to 0'],
        },
      ],
      [
        { rsa_key_restriction: -1, dsa_key_restriction: -1, ecdsa_key_restriction: -1, ed25519_key_restriction: -1 },
        { allowed_key_types: ["can't be blank"] },
      ],
      [
        { domain_blacklist_enabled: true, domain_blacklist: '' },
        { domain_blacklist: ['Domain blacklist cannot be empty if Blacklist is enabled.'] },
      ],
      [
        { jobqueue_throttling_enabled: true, jobqueue_throttling_queus: ['mailers'], jobqueue_throttling_factor: 1 },
        { jobqueue_throttling_factor: ['must be less than 1'] },
      ],
      [
        { captcha_enabled: true, captcha_site_key: '', captcha_private_key: 'k' },
        { captcha_site_key: ["can't be blank"] },
      ],
      // GitLab 10.3's Gitaly timeouts: fast ≤ medium ≤ default, none negative.
      [{ gitaly_timeout_medium: 60 }, { gitaly_timeout_medium: ['must be less than or equal to 55'] }],
      [{ gitaly_timeout_fast: 40 }, { gitaly_timeout_medium: ['must be greater than or equal to 40'] }],
      [
        { gitaly_timeout_default: 5 },
        {
          gitaly_timeout_medium: ['must be less than or equal to 5'],
          gitaly_timeout_fast: ['must be less than or equal to 5'],
        },
      ],
      [{ gitaly_timeout_fast: -1 }, { gitaly_timeout_fast: ['must be greater than or equal to 0'] }],
    ];
    for (const [body, message] of cases) {
      const res = await put(body);
      expect({ body, status: res.status, res: res.body }).toEqual({ body, status: 400, res: { message } });
    }
    // Nothing of the refused requests was stored.
    expect((await api(t, ROOT_TOKEN).get(URL)).body).toMatchObject({
      max_attachment_size: 10,
      home_page_url: null,
      rsa_key_restriction: 0,
    });
  });

  it('accepts arrays as a[]=, JSON arrays and, for domains and visibility levels, split strings', async () => {
    let res = await put(
      'import_sources[]=git&import_sources[]=github&restricted_visibility_levels[]=public&restricted_visibility_levels[]=0',
    ).expect(200);
    expect(res.body).toMatchObject({
      import_sources: ['git', 'github'],
      restricted_visibility_levels: ['public', 'private'],
    });
    res = await put({
      domain_whitelist: 'example.com\nexample.org; *.example.net, other.io',
      domain_blacklist: ['spam.com', 'junk.org'],
      restricted_visibility_levels: '10,public',
    }).expect(200);
    expect(res.body).toMatchObject({
      domain_whitelist: ['example.com', 'example.org', '*.example.net', 'other.io'],
      domain_blacklist: ['spam.com', 'junk.org'],
      restricted_visibility_levels: ['internal', 'public'],
    });
    res = await put({ restricted_visibility_levels: [] }).expect(200);
    expect(res.body.restricted_visibility_levels).toEqual([]);
  });

  it("bounds GitLab's string settings and list entries at 255 characters; text settings at most 65,536", async () => {
    const long = 'x'.repeat(256);
    const res = await put({
      home_page_url: `http://${long}.example`,
      captcha_private_key: long,
      domain_whitelist: ['ok.example', `${long}.example`],
      jobqueue_throttling_queues: [long],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        captcha_private_key: ['is too long (maximum is 255 characters)'],
        domain_whitelist: ['has an entry that is too long (maximum is 255 characters)'],
        home_page_url: ['is too long (maximum is 255 characters)'],
        jobqueue_throttling_queues: ['has an entry that is too long (maximum is 255 characters)'],
      },
    });
    expect((await api(t, ROOT_TOKEN).get(URL)).body).toMatchObject({
      home_page_url: null,
      domain_whitelist: null,
      jobqueue_throttling_queues: [],
    });
    const many = await put({ domain_whitelist: Array.from({ length: 1001 }, (_x, i) => `d${i}.example`).join(',') });
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ message: { domain_whitelist: ['has too many entries (maximum is 1000)'] } });
    // Characters as GitLab counts them: 255 emoji are 510 UTF-16 units and still fit.
    const edge = '😀'.repeat(255);
    const ok = await put({
      captcha_private_key: edge,
      domain_blacklist: [edge],
      domain_whitelist: Array.from({ length: 1000 }, (_x, i) => `d${i}.example`),
      sign_in_text: 'z'.repeat(65_536),
    }).expect(200);
    expect(ok.body).toMatchObject({ captcha_private_key: edge, domain_blacklist: [edge] });
    expect(ok.body.domain_whitelist).toHaveLength(1000);
    expect(ok.body.sign_in_text).toHaveLength(65_536);
    const gql = await api(t, ROOT_TOKEN).graphql(
      'mutation { applicationSettingsUpdate(input: { homePageUrl: "http://' +
        long +
        '.example" }) { applicationSettings { homePageUrl } errors } }',
    );
    expect(gql.body.data.applicationSettingsUpdate.applicationSettings).toBeNull();
    expect(gql.body.data.applicationSettingsUpdate.errors).toHaveLength(1);
  });

  it('maps legacy names and refuses two of the three', async () => {
    expect((await put({ signin_enabled: false }).expect(400)).body.error).toMatch(
      /are missing, at least one parameter must be provided$/,
    );
    let res = await put({ password_authentication_enabled_for_git: true, signin_enabled: false }).expect(200);
    expect(res.body).toMatchObject({
      password_authentication_enabled_for_web: false,
      password_authentication_enabled: false,
      signin_enabled: false,
    });
    res = await put({ password_authentication_enabled_for_git: false, password_authentication_enabled: true }).expect(
      200,
    );
    expect(res.body).toMatchObject({
      password_authentication_enabled_for_web: true,
      password_authentication_enabled_for_git: false,
      signin_enabled: true,
    });
    expect(
      (await put({ password_authentication_enabled_for_web: true, signin_enabled: false }).expect(400)).body,
    ).toEqual({ error: 'password_authentication_enabled_for_web, signin_enabled are mutually exclusive' });
    expect(
      (
        await put({
          password_authentication_enabled: true,
          signin_enabled: false,
          password_authentication_enabled_for_web: true,
        }).expect(400)
      ).body,
    ).toEqual({
      error:
        'password_authentication_enabled_for_web, password_authentication_enabled, signin_enabled are mutually exclusive',
    });
  });

  it('round-trips decimals without float noise', async () => {
    let res = await put('polling_interval_multiplier=0.3&jobqueue_throttling_factor=0.1').expect(200);
    expect(res.body).toMatchObject({ polling_interval_multiplier: 0.3, jobqueue_throttling_factor: 0.1 });
    expect(res.text).toContain('"polling_interval_multiplier":0.3,');
    res = await put({ polling_interval_multiplier: 1.15, jobqueue_throttling_factor: 0.7 }).expect(200);
    expect(res.text).toContain('"polling_interval_multiplier":1.15,');
    expect(res.text).toContain('"jobqueue_throttling_factor":0.7,');
    expect((await put({ polling_interval_multiplier: 'fast' }).expect(400)).body).toEqual({
      error: 'polling_interval_multiplier is invalid',
    });
  });

  it("enables job queue throttling with GitLab's required (misspelt) parameter", async () => {
    const res = await put({
      jobqueue_throttling_enabled: true,
      jobqueue_throttling_queus: ['mailers', 'pipelines'],
      jobqueue_throttling_factor: '0.25',
    }).expect(200);
    expect(res.body).toMatchObject({
      jobqueue_throttling_enabled: true,
      jobqueue_throttling_queues: ['mailers', 'pipelines'],
      jobqueue_throttling_factor: 0.25,
    });
  });

  it('stores `nil` as both git access protocols (null)', async () => {
    expect((await put({ enabled_git_access_protocol: 'ssh' }).expect(200)).body.enabled_git_access_protocol).toBe(
      'ssh',
    );
    expect((await put({ enabled_git_access_protocol: 'nil' }).expect(200)).body.enabled_git_access_protocol).toBeNull();
  });

  it('takes the performance bar group as a full path and shows its id', async () => {
    const [g] = await t.orm.em
      .getConnection()
      .execute(
        `insert into namespaces (name, path, full_path, full_name, kind) values ('Perf', 'perf', 'perf', 'Perf', 'group') returning id`,
      );
    let res = await put({ performance_bar_allowed_group_id: 'Perf' }).expect(200);
    expect(res.body).toMatchObject({ performance_bar_allowed_group_id: g.id, performance_bar_enabled: true });
    res = await put({ performance_bar_enabled: true }).expect(200);
    expect(res.body.performance_bar_allowed_group_id).toBe(g.id);
    res = await put({ performance_bar_enabled: false }).expect(200);
    expect(res.body).toMatchObject({ performance_bar_allowed_group_id: null, performance_bar_enabled: false });
    res = await put({ performance_bar_allowed_group_id: 'no/such/group' }).expect(200);
    expect(res.body.performance_bar_allowed_group_id).toBeNull();
  });

  it('never loses one of two concurrent updates of different settings', async () => {
    await api(t, ROOT_TOKEN).get(URL).expect(200);
    const sends = Array.from({ length: 6 }, (_, i) => put(i % 2 ? { max_pages_size: 77 } : { sign_in_text: 'hello' }));
    for (const r of await Promise.all(sends)) expect(r.status).toBe(200);
    expect((await api(t, ROOT_TOKEN).get(URL)).body).toMatchObject({ max_pages_size: 77, sign_in_text: 'hello' });
  });
});

describe('OpenAPI for /application/settings', () => {
  it('describes the parameters and the response from the catalogue', async () => {
    const doc = (await api(t).get('/api/v4/openapi.json').expect(200)).body;
    const put = doc.paths['/application/settings'].put;
    const props = put.requestBody.content['application/json'].schema.properties;
    expect(props.devenv_url).toMatchObject({
      type: 'string',
      description: 'Development environment URL; required when enabled.',
    });
    expect(props.polling_interval_multiplier.type).toBe('number');
    expect(props.default_project_visibility).toMatchObject({ type: 'string', enum: ['private', 'internal', 'public'] });
    const schema = doc.components.schemas.ApplicationSettings;
    expect(Object.keys(schema.properties).sort()).toEqual(RESPONSE_KEYS);
    expect(schema.properties.default_projects_limit).toMatchObject({
      type: 'integer',
      description: 'Project limit of new users.',
    });
  });
});
