import {
  BLANK,
  atLeast,
  atLeastField,
  atMostField,
  duration,
  eachIn,
  email,
  greaterThan,
  lessThan,
  present,
  presentIf,
  someKeyTypeAllowed,
  storagesConfigured,
  url,
  when,
  type Rule,
  type SettingValue,
} from './application-settings.rules';

/**
 * The application settings of spec 4.18, one entry each, in the spec table's order. Every other
 * layer is derived from this list: the SQL column list, REST parameters and coercion, framework
 * checks (enumerated values, conditional requirements), model rules, the GraphQL type and input,
 * the wire shape (presenter) and the OpenAPI descriptions. Adding a setting = one entry here plus
 * one column in a migration (docs/application-settings.md).
 */
export type SettingKind =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'decimal'
  | 'strings'
  /** private/internal/public, stored as GitLab's level 0/10/20. */
  | 'visibility'
  /** A list of levels, sent as names or numbers, stored as levels, shown as names. */
  | 'visibilities'
  /** Sent as a group's full path, stored and shown as the group's id (GitLab's performance bar group). */
  | 'groupPath'
  /** No column: derived from other settings (performance_bar_enabled). */
  | 'derived';

export interface SettingDef {
  name: string;
  kind: SettingKind;
  default: SettingValue;
  description: string;
  /** May be null (strings are nullable unless stated). */
  nullable?: boolean;
  /** Allowed values (framework level: 400 `<name> does not have a valid value`); for lists, per element. */
  values?: readonly (string | number)[];
  /** Sent as true in the same request → these parameters are required, in GitLab's order (400 `x is missing`). */
  requires?: readonly string[];
  /** Model rules on the merged stored + incoming values (400 {"message": {...}}). */
  rules?: readonly Rule[];
  /** A string is split into the list on commas, semicolons, whitespace and newlines (GitLab's domain lists). */
  splitText?: boolean;
  /**
   * Longest value sent (strings) or list entry (lists), in characters: 400 `is too long (maximum is
   * 255 characters)`. Strings default to 255, GitLab's `string` columns (where GitLab 10.3 itself
   * answered a database error); lists to 255 per entry (domains and queue names) and SETTING_LIST_MAX
   * entries. `null`: no limit, GitLab's `text` columns.
   */
  maxLength?: number | null;
  /**
   * A credential: stored sealed in `<name>_sealed` (application-settings.store.ts), shown in clear to
   * administrators as GitLab shows it.
   */
  secret?: boolean;
}

type Opts = Partial<Omit<SettingDef, 'name' | 'kind' | 'description'>>;
/** GitLab's `string` columns (varchar 255); list entries get the same bound. */
export const SETTING_STRING_MAX = 255;
/**
 * Entries of a list setting (domains, queues): every settings read parses the lists, so a list is
 * bounded like a runner's or project's tags (ours; GitLab 10.3 has no limit).
 */
export const SETTING_LIST_MAX = 1000;
const def =
  (kind: SettingKind) =>
  (name: string, dflt: SettingValue, description: string, o: Opts = {}): SettingDef => ({
    name,
    kind,
    default: dflt,
    description,
    nullable: kind === 'string' ? true : undefined,
    maxLength: kind === 'string' || kind === 'strings' ? SETTING_STRING_MAX : undefined,
    ...o,
  });
/**
 * GitLab's `text` columns, free text GitLab does not bound: bounded here so that no read of the
 * settings can be made to hold more than the GraphQL cost counts (docs/security.md, "Response size").
 */
export const SETTING_TEXT_MAX = 65_536;
const TEXT: Opts = { maxLength: SETTING_TEXT_MAX };
const str = def('string');
const bool = def('boolean');
const int = def('integer');
const dec = def('decimal');
const list = def('strings');
const vis = def('visibility');

const VISIBILITIES = ['private', 'internal', 'public'] as const;
/** GitLab 10.x import sources (the nine of spec 4.18). */
export const IMPORT_SOURCES = [
  'github',
  'bitbucket',
  'gitlab',
  'google_code',
  'fogbugz',
  'git',
  'gitlab_project',
  'gitea',
  'manifest',
];
const KEY_SIZES = {
  rsa: [0, -1, 1024, 2048, 3072, 4096],
  dsa: [0, -1, 1024, 2048, 3072],
  ecdsa: [0, -1, 256, 384, 521],
  ed25519: [0, -1, 256],
};
const keyRestriction = (type: keyof typeof KEY_SIZES, note: string, ...rules: Rule[]) =>
  int(`${type}_key_restriction`, 0, note, { values: KEY_SIZES[type], rules: [present(), ...rules] });
const nonNegative = [present(), atLeast(0)];
const positive = [present(), greaterThan(0)];
/** One of GitLab 10.3's three throttles: switch, requests per period, period in seconds (defaults 3600/3600). */
function throttle(name: string, what: string): SettingDef[] {
  const prefix = `throttle_${name}`;
  return [
    bool(`${prefix}_enabled`, false, `Rate limit: ${what}.`, {
      requires: [`${prefix}_requests_per_period`, `${prefix}_period_in_seconds`],
    }),
    int(`${prefix}_requests_per_period`, 3600, `Rate limit: requests allowed per period (${what}).`, {
      rules: positive,
    }),
    int(`${prefix}_period_in_seconds`, 3600, `Rate limit: the period in seconds (${what}).`, { rules: positive }),
  ];
}
const FACTOR_BLANK = 'Throttling factor cannot be empty if Sidekiq Throttling is enabled.';

export const SETTINGS: readonly SettingDef[] = [
  str('admin_notification_email', null, 'Abuse reports are sent to this address when set.', { rules: [email()] }),
  str('after_sign_out_path', null, 'Redirect target after logout.', { rules: [url()] }),
  str('after_sign_up_text', null, 'Text shown after sign-up.', TEXT),
  // Later GitLab's guard against server-side request forgery through system hooks (docs/security.md#ssrf-system-hook-urls).
  bool(
    'allow_local_requests_from_system_hooks',
    false,
    'System hooks may reach loopback, private and link-local addresses.',
  ),
  str('spamfilter_api_key', null, 'Key of the spam protection service.', {
    rules: [presentIf('spamfilter_enabled')],
    secret: true,
  }),
  bool('spamfilter_enabled', false, 'Spam protection for issues.', { requires: ['spamfilter_api_key'] }),
  int('circuitbreaker_access_retries', 3, 'Number of storage access attempts.', { rules: [present(), atLeast(1)] }),
  int('circuitbreaker_check_interval', 1, 'Seconds between storage checks.', { rules: nonNegative }),
  int('circuitbreaker_failure_count_threshold', 3, 'Failures after which storage access is completely blocked.', {
    rules: nonNegative,
  }),
  int(
    'circuitbreaker_failure_reset_time',
    1800,
    'Seconds that failure information is kept; reset when no failures occur in that time.',
    { rules: nonNegative },
  ),
  int('circuitbreaker_storage_timeout', 15, 'Seconds to wait for one storage access attempt.', { rules: nonNegative }),
  str('clientside_errortracker_dsn', null, 'Required when client-side error reporting is enabled.', {
    rules: [presentIf('clientside_errortracker_enabled')],
    secret: true,
  }),
  bool('clientside_errortracker_enabled', false, 'Client-side error reporting.', {
    requires: ['clientside_errortracker_dsn'],
  }),
  int('container_registry_token_expire_delay', 5, 'Container registry token lifetime in minutes.', { rules: positive }),
  str('default_artifacts_expire_in', '30 days', 'Default expiration of job artifacts (a duration such as `30 days`).', {
    nullable: false,
    rules: [present(), duration()],
  }),
  int(
    'default_branch_protection',
    2,
    '0 not protected; 1 partially protected (no force push or delete); 2 fully protected.',
    { values: [0, 1, 2] },
  ),
  vis('default_group_visibility', 'private', 'Visibility of new groups when a create omits it.', {
    values: VISIBILITIES,
  }),
  vis('default_project_visibility', 'private', 'Visibility of new projects when a create omits it.', {
    values: VISIBILITIES,
  }),
  int('default_projects_limit', 100000, 'Project limit of new users.'),
  vis('default_snippet_visibility', 'private', 'Visibility of new snippets when a create omits it.', {
    values: VISIBILITIES,
  }),
  list('disabled_oauth_sign_in_sources', [], 'Disabled OAuth sign-in sources (none are configured here).', {
    rules: [eachIn([], (x) => `'${x}' is not an OAuth sign-in source`)],
  }),
  bool('domain_blacklist_enabled', false, 'Refuse sign-up from the domains in domain_blacklist.', {
    requires: ['domain_blacklist'],
  }),
  list(
    'domain_blacklist',
    [],
    'Sign-up with e-mail from these domains is refused (list, or a comma/newline separated string).',
    {
      splitText: true,
      rules: [presentIf('domain_blacklist_enabled', 'Domain blacklist cannot be empty if Blacklist is enabled.')],
    },
  ),
  list('domain_whitelist', null, 'Only these e-mail domains may sign up; null means no restriction.', {
    nullable: true,
    splitText: true,
  }),
  keyRestriction('dsa', 'Minimum bit length of uploaded DSA keys; 0 no restriction; -1 disables DSA keys.'),
  keyRestriction('ecdsa', 'Minimum curve size of ECDSA keys in bits; 0 no restriction; -1 disables them.'),
  keyRestriction('ed25519', 'Minimum curve size of ED25519 keys in bits; 0 no restriction; -1 disables them.'),
  bool('email_author_in_body', false, 'Put the author name in the mail body.'),
  str('enabled_git_access_protocol', null, 'ssh, http, or nil (sent as the string `nil`, shown as null) for both.', {
    values: ['ssh', 'http', 'nil'],
  }),
  bool('avatar_enabled', true, 'External avatar service (stored only).'),
  bool('help_page_hide_commercial_content', false, 'Hide marketing-related entries from help.'),
  str('help_page_support_url', null, 'Alternate support URL for the help page.', { rules: [url()] }),
  str('home_page_url', null, 'Redirect target when not logged in.', { rules: [url()] }),
  bool('housekeeping_bitmaps_enabled', true, 'Pack file bitmaps.'),
  bool('housekeeping_enabled', true, 'Automatic repository housekeeping.', {
    requires: [
      'housekeeping_bitmaps_enabled',
      'housekeeping_incremental_repack_period',
      'housekeeping_full_repack_period',
      'housekeeping_gc_period',
    ],
  }),
  int('housekeeping_full_repack_period', 50, 'Pushes between full repacks.', {
    rules: [present(), atLeastField('housekeeping_incremental_repack_period')],
  }),
  int('housekeeping_gc_period', 200, 'Pushes between garbage collections.', {
    rules: [present(), atLeastField('housekeeping_full_repack_period')],
  }),
  int('housekeeping_incremental_repack_period', 10, 'Pushes between incremental repacks.', { rules: positive }),
  bool('html_emails_enabled', true, 'Send HTML e-mails besides plain text.'),
  list('import_sources', IMPORT_SOURCES, 'Allowed project import sources.', { values: IMPORT_SOURCES }),
  bool('devenv_enabled', false, 'Development environment integration.', { requires: ['devenv_url'] }),
  str('devenv_url', null, 'Development environment URL; required when enabled.', {
    rules: [presentIf('devenv_enabled')],
  }),
  int('max_artifacts_size', 100, 'Maximum artifacts size in MB.', { rules: positive }),
  int('max_attachment_size', 10, 'Maximum attachment size in MB.', { rules: positive }),
  int('max_pages_size', 100, 'Maximum size of a pages site in MB.'),
  bool('metrics_enabled', false, 'Time-series metrics.', {
    requires: [
      'metrics_host',
      'metrics_port',
      'metrics_pool_size',
      'metrics_timeout',
      'metrics_method_call_threshold',
      'metrics_sample_interval',
      'metrics_packet_size',
    ],
  }),
  str('metrics_host', 'localhost', 'Metrics host; required when metrics are enabled.'),
  int('metrics_method_call_threshold', 10, 'Milliseconds; only longer calls are tracked.'),
  int('metrics_packet_size', 1, 'Datapoints per UDP packet.'),
  int('metrics_pool_size', 16, 'Connections kept open.'),
  int('metrics_port', 8089, 'UDP port.'),
  int('metrics_sample_interval', 15, 'Seconds between samples.'),
  int('metrics_timeout', 10, 'Seconds.'),
  bool(
    'password_authentication_enabled_for_web',
    true,
    'Password authentication for the web interface (legacy names: password_authentication_enabled, signin_enabled).',
  ),
  bool('password_authentication_enabled_for_git', true, 'Password authentication for Git over HTTP(S).'),
  def('groupPath')(
    'performance_bar_allowed_group_id',
    null,
    'Group allowed to use the performance bar: sent as a full path, shown as the group id (an unknown path clears it).',
    { nullable: true },
  ),
  def('derived')(
    'performance_bar_enabled',
    false,
    'True when a performance bar group is set; sending false clears the group.',
  ),
  bool('diagram_enabled', false, 'Diagram rendering server.', { requires: ['diagram_url'] }),
  str('diagram_url', null, 'Diagram server URL; required when enabled.', { rules: [presentIf('diagram_enabled')] }),
  dec('polling_interval_multiplier', 1, 'Polling interval multiplier; 0 disables polling.', { rules: nonNegative }),
  bool('project_export_enabled', true, 'Project export.'),
  bool('monitoring_metrics_enabled', false, 'Monitoring metrics endpoint.'),
  bool('captcha_enabled', false, 'Captcha on sign-up.', { requires: ['captcha_site_key', 'captcha_private_key'] }),
  str('captcha_private_key', null, 'Captcha private key; required when enabled.', {
    rules: [presentIf('captcha_enabled')],
    secret: true,
  }),
  str('captcha_site_key', null, 'Captcha site key; required when enabled.', { rules: [presentIf('captcha_enabled')] }),
  bool('repository_checks_enabled', true, 'Periodic repository integrity check.'),
  list('repository_storages', ['default'], 'Names of enabled storage paths; new projects go to one chosen at random.', {
    rules: [present(), storagesConfigured()],
  }),
  bool('require_two_factor_authentication', false, 'Require two-factor authentication.', {
    requires: ['two_factor_grace_period'],
  }),
  def('visibilities')(
    'restricted_visibility_levels',
    null,
    'Levels (names or 0/10/20) non-administrators cannot use for groups and projects.',
    {
      nullable: true,
      rules: [eachIn([0, 10, 20], (x) => `'${x}' is not a valid visibility level`)],
    },
  ),
  keyRestriction('rsa', 'Minimum bit length of RSA keys; 0 no restriction; -1 disables them.', someKeyTypeAllowed()),
  bool('send_user_confirmation_email', false, 'Send a confirmation e-mail on sign-up.'),
  str('errortracker_dsn', null, 'Error tracker DSN; required when enabled.', {
    rules: [presentIf('errortracker_enabled')],
    secret: true,
  }),
  bool('errortracker_enabled', false, 'Server-side error reporting.', { requires: ['errortracker_dsn'] }),
  int('session_expire_delay', 10080, 'Session duration in minutes; a restart is required to apply.', {
    rules: nonNegative,
  }),
  bool('shared_runners_enabled', true, 'Default of shared_runners_enabled for new projects.', {
    requires: ['shared_runners_text'],
  }),
  str('shared_runners_text', null, 'Shared runners text.', TEXT),
  // Spec 4.18 requires jobqueue_throttling_queues; GitLab 10.x's misspelt `..._queus` is accepted as an alias (QUEUES_TYPO).
  bool('jobqueue_throttling_enabled', false, 'Job queue throttling.', {
    requires: ['jobqueue_throttling_queues', 'jobqueue_throttling_factor'],
  }),
  dec('jobqueue_throttling_factor', null, 'Between 0.0 and 1.0, exclusive.', {
    nullable: true,
    rules: [when('jobqueue_throttling_enabled', present(FACTOR_BLANK), greaterThan(0), lessThan(1))],
  }),
  list('jobqueue_throttling_queues', [], 'Queues to throttle.', {
    rules: [
      presentIf('jobqueue_throttling_enabled', 'Queues to throttle cannot be empty if Sidekiq Throttling is enabled.'),
    ],
  }),
  str('sign_in_text', null, 'Text on the login page.', TEXT),
  bool('signup_enabled', true, 'Sign-up allowed.'),
  int('terminal_max_session_time', 0, 'Seconds; 0 unlimited.', { rules: nonNegative }),
  int('two_factor_grace_period', 48, 'Hours users may postpone two-factor setup.', { rules: [atLeast(0)] }),
  bool('unique_ips_limit_enabled', false, 'Refuse API requests of a user from too many distinct IPs.'),
  int('unique_ips_limit_per_user', 10, 'Distinct IPs allowed per user within the window.', {
    rules: [when('unique_ips_limit_enabled', present(BLANK), atLeast(1))],
  }),
  int('unique_ips_limit_time_window', 3600, 'Window of the unique-IPs limit in seconds.', {
    rules: [when('unique_ips_limit_enabled', present(BLANK), atLeast(0))],
  }),
  // GitLab 10.3 "Add anonymous rate limit per IP, and authenticated (web or API) rate limits per user"
  // (its Rack::Attack throttles); in effect through core/http/rate-limit.ts (docs/rest.md#rate-limits-throttle_).
  ...throttle('unauthenticated', 'Requests without a valid token, per client IP address'),
  ...throttle('authenticated_api', 'API requests (REST and GraphQL) with a token, per user'),
  ...throttle(
    'authenticated_web',
    'Web requests of signed-in users, per user (this service has no web sessions: stored only)',
  ),
  // GitLab 10.3 settings the spec's table does not list (docs/gitlab-10.3-routes.md): stored and served;
  // what they switch (Auto DevOps, Gitaly, hashed storage) needs CI or repositories this service has not.
  bool(
    'auto_devops_enabled',
    false,
    'Default Auto DevOps pipeline for projects without a CI configuration (stored only).',
  ),
  int('gitaly_timeout_default', 55, 'Seconds; default timeout of Gitaly calls (stored only).', {
    rules: [present(), atLeast(0)],
  }),
  int('gitaly_timeout_medium', 30, 'Seconds; between gitaly_timeout_fast and gitaly_timeout_default (stored only).', {
    rules: [present(), atLeast(0), atMostField('gitaly_timeout_default'), atLeastField('gitaly_timeout_fast')],
  }),
  int('gitaly_timeout_fast', 10, 'Seconds; at most gitaly_timeout_default (stored only).', {
    rules: [present(), atLeast(0), atMostField('gitaly_timeout_default')],
  }),
  bool('hashed_storage_enabled', false, 'New projects use hashed storage paths (stored only).'),
  str('help_page_text', null, 'Custom text on the help page.', TEXT),
  bool('usage_ping_enabled', true, 'Weekly usage report.'),
  bool('user_default_external', false, 'New users are external (no group creation, no personal projects).'),
  bool('user_oauth_applications', true, 'Users may register OAuth applications.'),
  bool('version_check_enabled', true, 'Inform about available updates.'),
];

export const SETTING_BY_NAME: ReadonlyMap<string, SettingDef> = new Map(SETTINGS.map((s) => [s.name, s]));

/** Settings with a column of their own (all but the derived ones; a secret's column is `<name>_sealed`). */
export const STORED_SETTINGS = SETTINGS.filter((s) => s.kind !== 'derived');

/** Legacy names of password_authentication_enabled_for_web (GitLab accepts and shows them). */
export const WEB_PASSWORD_ALIASES = ['password_authentication_enabled', 'signin_enabled'] as const;
/** GitLab 10.x's misspelt requirement of jobqueue throttling, stored as jobqueue_throttling_queues. */
export const QUEUES_TYPO = 'jobqueue_throttling_queus';
