import 'reflect-metadata';
import { loadConfig } from '../config';
import { ctxFactory } from '../core/context/request-ctx';
import { secretsFrom } from '../core/crypto/secret-box';
import { uncachedSharedCache } from '../core/db/shared-cache';
import { openDatabase } from '../core/db/database';
import { createLogger } from '../core/logger';
import { ormModelOf, loaderFactory } from '../core/module/app-module';
import { MODULES } from '../modules';
import { startupExitCode, startupMessage, startupSteps } from '../ops/startup-failure';

/**
 * `npm run seed [-- --scale N]`: demo data (idempotent), plus N scale units of benchmark data.
 * Uses DATABASE_URL, or the embedded PostgreSQL under DATA_DIR: the one `npm start` is running
 * (found through DATA_DIR/instance.json), or a fresh start of it that is stopped afterwards.
 */
function parseScale(argv: string[]): number {
  const i = argv.indexOf('--scale');
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--scale='))?.split('=')[1];
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) {
    process.stderr.write(`--scale needs a non-negative integer, got "${raw}"\n`);
    process.exit(2);
  }
  return Number(raw);
}

async function main(): Promise<void> {
  const scale = parseScale(process.argv.slice(2));
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const secrets = secretsFrom(config);
  // The same once-per-database steps as a start (key check: the seed seals tokens too; root user).
  const db = await openDatabase(config, logger, ormModelOf(MODULES), {
    once: startupSteps(config, logger, secrets, MODULES),
  }).catch((e: unknown) => {
    process.stderr.write(`${startupMessage(e, config)}\n`);
    process.exit(startupExitCode(e));
  });
  const newCtx = ctxFactory(loaderFactory(MODULES));
  try {
    const started = Date.now();
    for (const step of MODULES.flatMap((m) => m.seed ?? [])) {
      const em = db.orm.em.fork();
      await step({
        em,
        externalUrl: config.externalUrl,
        log,
        scale,
        as: (user) =>
          newCtx({
            em: em.fork(),
            user,
            externalUrl: config.externalUrl,
            secrets,
            cache: uncachedSharedCache(),
            env: process.env,
          }),
      });
    }
    if (scale > 0) log(`scale data: ${scale} unit(s) in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`seed failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
