import type { AppEnv } from '../../core/context/request-ctx';
import { ConfigError, flagSetting, readSetting, textSetting } from '../../core/module/env-settings';

export interface PagesConfig {
  /** PAGES_ENABLED (default true): when false every pages route answers 404 "404 Not Found". */
  enabled: boolean;
  /** PAGES_HOST (default example.com): domains ending with it are refused (spec 4.27). */
  host: string;
}

const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

export const PAGES_ENABLED = flagSetting('PAGES_ENABLED', true);
export const PAGES_HOST = textSetting('PAGES_HOST', (v) => {
  if (v === undefined) return 'example.com';
  if (!HOST.test(v)) throw new ConfigError(`PAGES_HOST must be a host name such as pages.example.com, got "${v}"`);
  return v;
});

export function pagesConfig(env: AppEnv): PagesConfig {
  return { enabled: readSetting(env, PAGES_ENABLED), host: readSetting(env, PAGES_HOST) };
}
