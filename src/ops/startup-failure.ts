import type { Logger } from 'pino';
import type { Config } from '../config';
import { keySource, runOn, SecretsKeyMismatch, verifySecretsKey } from '../core/crypto/key-check';
import type { SecretBox } from '../core/crypto/secret-box';
import type { Orm } from '../core/db/orm';
import { sealedColumnsOf, type AppModule } from '../core/module/app-module';
import { redactSql } from '../core/errors/redact-sql';

/** A start-up error as one redacted phrase (no stack: docs/operations.md#start-up-failures). */
export function reason(e: unknown): string {
  return redactSql(e instanceof Error ? e.message : String(e));
}

/** One clear line (what failed, what to do) instead of a stack trace. */
export function startupHint(config: Config): string {
  return config.databaseUrl
    ? 'check that DATABASE_URL points to a reachable PostgreSQL and that its role owns the database'
    : `check DATA_DIR (${config.dataDir}) and the lines above; npm ci reinstalls the PostgreSQL binaries, or set DATABASE_URL to use an external server`;
}

/**
 * The once-per-database start-up steps, run under the start-up lock after the migrations
 * (core/db/database.ts `once`): the secrets key check, then the root user on an empty database.
 */
export function startupSteps(
  config: Config,
  logger: Logger,
  secrets: SecretBox,
  modules: readonly AppModule[],
): (orm: Orm) => Promise<void> {
  return async (orm) => {
    const result = await verifySecretsKey(runOn(orm.em.fork()), secrets, sealedColumnsOf(modules), keySource(config));
    if (result === 'stored')
      logger.info(
        'stored the secrets key check: every instance on this database must use this key (docs/scale-out.md)',
      );
    for (const m of modules)
      await m.atStart?.({ em: orm.em.fork(), logger, initialRootToken: config.initialRootToken });
  };
}

/** A failed start: one fatal line; exit 2 for a wrong secrets key (configuration), else 1. */
export function startupExitCode(e: unknown): number {
  return e instanceof SecretsKeyMismatch ? 2 : 1;
}

export function startupMessage(e: unknown, config: Config): string {
  if (e instanceof SecretsKeyMismatch) return `secrets key check failed: ${e.message}`;
  return `database start-up failed: ${reason(e)}; ${startupHint(config)}`;
}
