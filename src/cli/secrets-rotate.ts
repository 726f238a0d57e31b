import 'reflect-metadata';
import { loadConfig } from '../config';
import { runOn } from '../core/crypto/key-check';
import { resealAll } from '../core/crypto/rotate';
import { adoptRotatedKey, secretsFrom } from '../core/crypto/secret-box';
import { openDatabase } from '../core/db/database';
import { createLogger } from '../core/logger';
import { ormModelOf, sealedColumnsOf } from '../core/module/app-module';
import { MODULES } from '../modules';
import { startupExitCode, startupMessage, startupSteps } from '../ops/startup-failure';

/**
 * `npm run secrets:rotate`: re-seals every stored secret under SECRETS_KEY (opening with it or with
 * SECRETS_KEY_PREVIOUS), recomputes their lookup digests and stores the new key check. Running
 * instances keep serving meanwhile (docs/operations.md#secrets-key-rotation). Exit 0 when
 * every value was re-sealed, 1 when some opened with no configured key (listed; left unchanged).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const out = (m: string) => process.stdout.write(`${m}\n`);
  const secrets = secretsFrom(config, logger);
  const db = await openDatabase(config, logger, ormModelOf(MODULES), {
    once: startupSteps(config, logger, secrets, MODULES),
  }).catch((e: unknown) => {
    process.stderr.write(`${startupMessage(e, config)}\n`);
    process.exit(startupExitCode(e));
  });
  try {
    const started = Date.now();
    const report = await resealAll(runOn(db.orm.em.fork()), secrets, sealedColumnsOf(MODULES), {
      log: (l) => logger.debug(l),
    });
    for (const [column, n] of Object.entries(report.resealed)) out(`${column}: ${n} re-sealed`);
    if (report.skipped > 0) out(`${report.skipped} changed by a running instance meanwhile (already sealed anew)`);
    if (report.unreadable.length > 0) {
      out(
        `${report.unreadable.length} value(s) open with none of the configured keys and were left as they are; the key check was not changed:`,
      );
      for (const s of report.unreadable.slice(0, 50)) out(`  ${s.table}.${s.column} row ${s.row}`);
      process.exitCode = 1;
    } else {
      // What the next start without SECRETS_KEY reads must be the key the database is now sealed with.
      if (config.secretsKey && adoptRotatedKey(config.dataDir, config.secretsKey) === 'replaced')
        out(`${config.dataDir}/secrets.key now holds SECRETS_KEY (the previous key is not kept)`);
      out(
        `done in ${((Date.now() - started) / 1000).toFixed(1)} s; the key check is now SECRETS_KEY's: SECRETS_KEY_PREVIOUS can be removed once every instance runs with this SECRETS_KEY`,
      );
    }
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`secrets:rotate failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
