import type { Config } from '../config';
import { redactSql } from '../core/errors/redact-sql';

/** A start-up error as one redacted phrase (no stack: README "Operations", start-up failures). */
export function reason(e: unknown): string {
  return redactSql(e instanceof Error ? e.message : String(e));
}

/** One clear line (what failed, what to do) instead of a stack trace. */
export function startupHint(config: Config): string {
  return config.databaseUrl
    ? 'check that DATABASE_URL points to a reachable PostgreSQL and that its role owns the database'
    : `check DATA_DIR (${config.dataDir}) and the lines above; npm ci reinstalls the PostgreSQL binaries, or set DATABASE_URL to use an external server`;
}
