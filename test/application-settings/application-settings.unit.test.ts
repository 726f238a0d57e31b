import { parseDuration } from '../../src/modules/application-settings/application-settings.rules';
import { SETTINGS } from '../../src/modules/application-settings/application-settings.catalogue';
import { ApplicationSettingsWire } from '../../src/modules/application-settings/application-settings.presenter';
import { SETTINGS_RULES } from '../../src/modules/application-settings/application-settings.validation';

describe('settings catalogue', () => {
  it("has one entry per attribute of the spec table (89), of GitLab 10.3's throttles (9), its six settings the spec does not list, and the system hooks' local-requests switch, each with a description and a default of its kind", () => {
    expect(SETTINGS).toHaveLength(105);
    expect(new Set(SETTINGS.map((s) => s.name)).size).toBe(105);
    // GitLab 10.3 settings the spec's table does not list.
    expect(SETTINGS.slice(-10, -4).map((s) => s.name)).toEqual([
      'auto_devops_enabled',
      'gitaly_timeout_default',
      'gitaly_timeout_medium',
      'gitaly_timeout_fast',
      'hashed_storage_enabled',
      'help_page_text',
    ]);
    expect(SETTINGS.filter((s) => s.name.startsWith('allow_local_requests')).map((s) => s.name)).toEqual([
      'allow_local_requests_from_system_hooks',
    ]);
    expect(SETTINGS.filter((s) => s.name.startsWith('throttle_')).map((s) => s.name)).toEqual([
      'throttle_unauthenticated_enabled',
      'throttle_unauthenticated_requests_per_period',
      'throttle_unauthenticated_period_in_seconds',
      'throttle_authenticated_api_enabled',
      'throttle_authenticated_api_requests_per_period',
      'throttle_authenticated_api_period_in_seconds',
      'throttle_authenticated_web_enabled',
      'throttle_authenticated_web_requests_per_period',
      'throttle_authenticated_web_period_in_seconds',
    ]);
    for (const s of SETTINGS) {
      expect(s.description.length).toBeGreaterThan(3);
      if (s.default === null) expect(s.nullable).toBe(true);
    }
  });

  it('drives the wire shape: the settings in order, then aliases, token and timestamps', () => {
    const keys = Object.keys(ApplicationSettingsWire.fields);
    expect(keys[0]).toBe('id');
    expect(keys.slice(1, 106)).toEqual(SETTINGS.map((s) => s.name));
    expect(keys.slice(106)).toEqual([
      'password_authentication_enabled',
      'signin_enabled',
      'runners_registration_token',
      'created_at',
      'updated_at',
    ]);
  });

  it("declares the conditional requirements in GitLab's order of `given` blocks", () => {
    const givens = SETTINGS_RULES.flatMap((r) => ('given' in r ? [r.given] : []));
    expect(givens).toEqual([
      'domain_blacklist_enabled',
      'require_two_factor_authentication',
      'shared_runners_enabled',
      'metrics_enabled',
      'jobqueue_throttling_enabled',
      'captcha_enabled',
      'spamfilter_enabled',
      'errortracker_enabled',
      'clientside_errortracker_enabled',
      'devenv_enabled',
      'diagram_enabled',
      'housekeeping_enabled',
      'throttle_unauthenticated_enabled',
      'throttle_authenticated_api_enabled',
      'throttle_authenticated_web_enabled',
    ]);
  });
});

describe('parseDuration (default_artifacts_expire_in)', () => {
  it.each([
    ['30 days', 2592000],
    ['1 hour', 3600],
    ['2h 30m', 9000],
    ['3600', 3600],
    ['1 week and 2 days', 777600],
    ['5 mins', 300],
  ])('%s → %d seconds', (text, seconds) => expect(parseDuration(text)).toBe(seconds));

  it.each(['soon', '', '10 parsecs', 'days 30x'])('rejects %p', (text) => expect(parseDuration(text)).toBeUndefined());
});
