import fs from 'node:fs';
import path from 'node:path';
import { envSettingsOf } from '../../src/core/module/app-module';
import { ConfigError, checkEnvSettings, readSetting } from '../../src/core/module/env-settings';
import { MODULES } from '../../src/modules';
import { ConfigError as CoreConfigError } from '../../src/config';

/** The environment variables modules (and core's subscriptions) declare: checked at start, read through one parser. */
const declared = envSettingsOf(MODULES);
const byName = new Map(declared.map((s) => [s.name, s]));

describe('declared environment settings', () => {
  it('are the ones docs/configuration.md documents', () => {
    expect(declared.map((s) => s.name).sort()).toEqual([
      'FEATURE_GROUPS',
      'PAGES_ENABLED',
      'PAGES_HOST',
      'SUBSCRIPTION_CONNECTIONS_PER_USER',
      'SUBSCRIPTION_MAX_PER_USER',
      'SUBSCRIPTION_PENDING_PER_ADDRESS',
      'SUBSCRIPTION_PING_INTERVAL_MS',
      'SUBSCRIPTION_RATE_PER_MINUTE',
      'SYSTEM_HOOK_PRUNE_MS',
      'SYSTEM_HOOK_RETRY_BASE_MS',
      'SYSTEM_HOOK_RETRY_MAX_MS',
      'SYSTEM_HOOK_TIMEOUT_MS',
      'UNIQUE_IPS_PRUNE_MS',
    ]);
    const doc = fs.readFileSync(path.join(__dirname, '../../docs/configuration.md'), 'utf8');
    for (const s of declared) expect(doc).toContain(`| \`${s.name}\` |`);
  });

  it('unset or empty: the documented defaults', () => {
    for (const env of [{}, Object.fromEntries(declared.map((s) => [s.name, '']))]) {
      const value = (name: string) => readSetting(env, byName.get(name)!);
      expect(value('PAGES_ENABLED')).toBe(true);
      expect(value('PAGES_HOST')).toBe('example.com');
      expect(value('SYSTEM_HOOK_TIMEOUT_MS')).toBe(10_000);
      expect(value('SYSTEM_HOOK_RETRY_BASE_MS')).toBe(10_000);
      expect(value('SYSTEM_HOOK_RETRY_MAX_MS')).toBe(3_600_000);
      expect(value('SYSTEM_HOOK_PRUNE_MS')).toBe(60_000);
      expect(value('UNIQUE_IPS_PRUNE_MS')).toBe(3_600_000);
      expect(value('SUBSCRIPTION_CONNECTIONS_PER_USER')).toBe(20);
      expect(value('SUBSCRIPTION_PING_INTERVAL_MS')).toBe(30_000);
      expect([...(value('FEATURE_GROUPS') as Map<string, unknown>).keys()]).toEqual(['perf_team']);
      expect(() => checkEnvSettings(declared, env)).not.toThrow();
    }
  });

  it('accepts what each documents', () => {
    const env = {
      PAGES_ENABLED: ' OFF ',
      PAGES_HOST: 'Pages.Acme.io',
      SYSTEM_HOOK_TIMEOUT_MS: '2000',
      UNIQUE_IPS_PRUNE_MS: ' 200 ',
      SUBSCRIPTION_CONNECTIONS_PER_USER: '1',
      FEATURE_GROUPS: 'beta_testers=alice;qa',
    };
    expect(() => checkEnvSettings(declared, env)).not.toThrow();
    expect(readSetting(env, byName.get('PAGES_ENABLED')!)).toBe(false);
    expect(readSetting(env, byName.get('PAGES_HOST')!)).toBe('Pages.Acme.io');
    expect(readSetting(env, byName.get('UNIQUE_IPS_PRUNE_MS')!)).toBe(200);
    expect([...(readSetting(env, byName.get('FEATURE_GROUPS')!) as Map<string, unknown>).keys()]).toEqual([
      'perf_team',
      'beta_testers',
      'qa',
    ]);
    for (const on of ['true', '1', 'YES', 'on'])
      expect(readSetting({ PAGES_ENABLED: on }, byName.get('PAGES_ENABLED')!)).toBe(true);
  });

  it('refuses a wrong value with its name and what it takes, every wrong one at once (before: silently the default)', () => {
    const env = {
      PAGES_ENABLED: 'maybe',
      PAGES_HOST: 'not a host',
      SYSTEM_HOOK_TIMEOUT_MS: '10s',
      SYSTEM_HOOK_RETRY_MAX_MS: '0',
      UNIQUE_IPS_PRUNE_MS: '-1',
      SUBSCRIPTION_PING_INTERVAL_MS: '1.5',
      SUBSCRIPTION_CONNECTIONS_PER_USER: '9007199254740993',
      FEATURE_GROUPS: 'bad-name=alice',
    };
    let thrown: unknown;
    try {
      checkEnvSettings(declared, env);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toBeInstanceOf(CoreConfigError); // one class: main.ts prints it and exits 2
    expect((thrown as Error).message.split('; ').sort()).toEqual([
      'FEATURE_GROUPS: "bad-name" is not a valid group name (letters, digits, \'_\')',
      'PAGES_ENABLED must be true or false (or 1/0, yes/no, on/off), got "maybe"',
      'PAGES_HOST must be a host name such as pages.example.com, got "not a host"',
      'SUBSCRIPTION_CONNECTIONS_PER_USER must be a whole number greater than 0, got "9007199254740993"',
      'SUBSCRIPTION_PING_INTERVAL_MS must be a whole number greater than 0, got "1.5"',
      'SYSTEM_HOOK_RETRY_MAX_MS must be a whole number greater than 0, got "0"',
      'SYSTEM_HOOK_TIMEOUT_MS must be a whole number greater than 0, got "10s"',
      'UNIQUE_IPS_PRUNE_MS must be a whole number greater than 0, got "-1"',
    ]);
  });
});
