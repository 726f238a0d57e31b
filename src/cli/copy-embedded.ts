import 'reflect-metadata';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig, type Config } from '../config';
import { secretsFrom } from '../core/crypto/secret-box';
import { copyDatabase } from '../core/db/copy-database';
import { openDatabase, withStartupLock } from '../core/db/database';
import { hasUsers } from '../core/db/table-rows';
import { startOrReuseEmbedded, type EmbeddedHandle } from '../core/db/embedded/embedded-postgres';
import { createLogger } from '../core/logger';
import { ormModelOf } from '../core/module/app-module';
import { MODULES } from '../modules';
import { startupExitCode, startupMessage, startupSteps } from '../ops/startup-failure';

/**
 * `npm run db:copy-embedded -- <target DATABASE_URL>`: copies the embedded PostgreSQL under DATA_DIR
 * into a shared PostgreSQL, for several instances (docs/operations.md#moving-to-a-shared-postgresql).
 * The service must be stopped (writes after the copy would be lost). The target database must exist,
 * owned by the URL's role, with no users yet; it is migrated first. The embedded data stays as it was.
 * Exit 0 copied, 1 failed (target unchanged), 2 wrong usage or settings.
 */
const out = (m: string) => process.stdout.write(`${m}\n`);

/** A failure with its own message and exit code (the source's start-up: 2 for a wrong secrets key). */
class Failed extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function usage(message: string): never {
  process.stderr.write(
    `db:copy-embedded: ${message}\nusage: npm run db:copy-embedded -- postgres://user:pass@host:5432/db\n`,
  );
  process.exit(2);
}

function targetFromArgs(argv: string[], config: Config): string {
  if (config.databaseUrl)
    usage(
      'DATABASE_URL is set: this command copies the embedded PostgreSQL of DATA_DIR; unset DATABASE_URL and pass the target as the argument',
    );
  const target = argv[0];
  if (!target || !/^postgres(ql)?:\/\//.test(target)) usage('give the target database URL');
  return target;
}

async function targetHasUsers(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await hasUsers(c);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const target = targetFromArgs(process.argv.slice(2), config);
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const log = {
    info: (m: string) => logger.info(m),
    warn: (m: string) => logger.warn(m),
    error: (m: string) => logger.error(m),
  };
  const embedded: EmbeddedHandle = await startOrReuseEmbedded({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    log,
    onFatal: (m) => logger.fatal(m),
  });
  if (!embedded.owned)
    throw new Failed(
      `the service is running on ${config.dataDir}; stop it first (writes after the copy would be lost)`,
      1,
    );
  try {
    if (await targetHasUsers(target))
      throw new Error('the target database already has users: copy into a new, empty database');
    // The source as a start would open it (pending migrations, the secrets key check), then the target migrated.
    const secrets = secretsFrom(config, logger);
    const opened = async (url: string, once?: ReturnType<typeof startupSteps>) => {
      const db = await openDatabase(
        { ...config, databaseUrl: url, databaseDirectUrl: url },
        logger,
        ormModelOf(MODULES),
        { once },
      );
      await db.close();
    };
    await opened(embedded.url, startupSteps(config, logger, secrets, MODULES)).catch((e: unknown) => {
      throw new Failed(startupMessage(e, config), startupExitCode(e));
    });
    await opened(target);
    // Under the start-up lock: an instance started on the target meanwhile waits, then finds the copy.
    const report = await withStartupLock(target, logger, config.db.connectTimeoutMs, () =>
      copyDatabase(embedded.url, target),
    );
    const total = Object.values(report.rows).reduce((a, b) => a + b, 0);
    for (const [table, n] of Object.entries(report.rows)) if (n > 0) out(`${table}: ${n}`);
    out(`copied ${total} rows of ${Object.keys(report.rows).length} tables and ${report.sequences} sequences`);
    const key = config.secretsKey
      ? 'the same SECRETS_KEY'
      : `SECRETS_KEY set to the 64 hex characters in ${path.join(config.dataDir, 'secrets.key')}`;
    out(
      `start every instance with DATABASE_URL set to the target and ${key}; ${path.join(config.dataDir, 'postgres')} is unchanged`,
    );
  } finally {
    await embedded.stop();
  }
}

main().catch((e: unknown) => {
  // The copy is one transaction: a failure leaves the target with at most the migrated, empty schema.
  process.stderr.write(`db:copy-embedded failed, no rows were copied: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof Failed ? e.code : 1);
});
