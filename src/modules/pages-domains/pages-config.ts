import type { AppEnv } from '../../core/context/request-ctx';

export interface PagesConfig {
  /** PAGES_ENABLED (default true): when false every pages route answers 404 "404 Not Found". */
  enabled: boolean;
  /** PAGES_HOST (default example.com): domains ending with it are refused (spec 4.27). */
  host: string;
}

const OFF = new Set(['false', '0', 'no', 'off']);

export function pagesConfig(env: AppEnv): PagesConfig {
  return {
    enabled: !OFF.has((env.PAGES_ENABLED ?? 'true').trim().toLowerCase()),
    host: (env.PAGES_HOST ?? '').trim() || 'example.com',
  };
}
