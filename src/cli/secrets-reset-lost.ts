import 'reflect-metadata';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { keySource } from '../core/crypto/key-check';
import { resetUnreadable } from '../core/crypto/reset-lost';
import { secretsFrom } from '../core/crypto/secret-box';
import { openDatabase } from '../core/db/database';
import { INSTANCE_SCOPE, recordAuditAs } from '../core/events/audit';
import { ormModelOf, sealedColumnsOf } from '../core/module/app-module';
import { MODULES } from '../modules';
import { startOrReuseEmbedded } from '../core/db/embedded/embedded-postgres';
import { CommandFailed, commandLogger, runCommand } from './command-database';

/**
 * `npm run secrets:reset-lost [-- --by <admin username>]` (docs/operations.md#keys): after the secrets
 * key was lost, resets every sealed value the configured key (SECRETS_KEY, else DATA_DIR/secrets.key,
 * created if missing) does not open, each by its column's rule (the modules' `sealed` declarations):
 * runner tokens and the registration token new, projects' runners tokens null (made anew on the next
 * read), settings credentials null with their switches off, hooks' secret tokens and pages private keys
 * null. Then the key check becomes this key's, so the service starts again with it, and one audit event
 * records what was reset (author: `--by`, default root). It runs where the start refuses (exit 2, key
 * mismatch); run it with the key every instance will use. Exit 0 done, 1 failed (nothing changed), 2 usage.
 */
const out = (m: string) => process.stdout.write(`${m}\n`);

function byOf(argv: string[]): string | undefined {
  if (argv.length === 0) return undefined;
  if (argv[0] === '--by' && argv[1] && argv.length === 2) return argv[1];
  throw new CommandFailed('usage: npm run secrets:reset-lost [-- --by <admin username>]', 2);
}

type Run = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
const runIn =
  (em: EntityManager): Run =>
  (sql, params = []) =>
    em.getConnection().execute(sql, params, 'all', em.getTransactionContext()) as Promise<Record<string, unknown>[]>;

/** The administrator the audit event names: `--by`, else root, else the first administrator. */
async function authorOf(run: Run, by: string | undefined): Promise<{ id: number; name: string; username: string }> {
  const rows = by
    ? await run('select id, name, username from users where lower(username) = lower(?) and admin', [by])
    : await run(
        `select id, name, username from users where admin order by (lower(username) = 'root') desc, id limit 1`,
      );
  if (rows.length === 0)
    throw new CommandFailed(by ? `no administrator with the username ${by}` : 'the database has no administrator', 2);
  return { id: Number(rows[0].id), name: String(rows[0].name), username: String(rows[0].username) };
}

async function main(): Promise<void> {
  const by = byOf(process.argv.slice(2));
  const config = loadConfig();
  const logger = commandLogger(config);
  if (!config.databaseUrl) {
    // The embedded server of a running service: that service has its key; resetting behind it is wrong.
    const probe = await startOrReuseEmbedded({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      log: { info: () => undefined, warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
      onFatal: (m) => logger.fatal(m),
    });
    await probe.stop();
    if (!probe.owned) throw new CommandFailed(`the service is running on ${config.dataDir}; stop it first`, 1);
  }
  const secrets = secretsFrom(config, logger);
  // As a start opens it (migrations under the start-up lock), but without the key check it would fail.
  const db = await openDatabase(config, logger, ormModelOf(MODULES));
  try {
    const em = db.orm.em.fork();
    const report = await em.transactional(async (tx) => {
      const run = runIn(tx);
      const author = await authorOf(run, by);
      const reset = await resetUnreadable(run, secrets, sealedColumnsOf(MODULES));
      const counts = Object.entries(reset.reset).map(([column, n]) => `${column} ${n}`);
      if (counts.length > 0)
        await recordAuditAs(tx, author, [
          {
            ...INSTANCE_SCOPE,
            targetType: 'SecretsKey',
            targetId: 1,
            targetDetails: 'secrets key',
            action: {
              customMessage: `Reset the sealed values ${keySource(config)} does not open: ${counts.join(', ')}`,
            },
          },
        ]);
      return { ...reset, author };
    });
    const total = Object.values(report.reset).reduce((a, b) => a + b, 0);
    if (total === 0) {
      out(`every sealed value opens with ${keySource(config)}: nothing to reset; the key check is this key's`);
      return;
    }
    for (const [column, n] of Object.entries(report.reset)) out(`${column}: ${n} reset`);
    out(`reset ${total} sealed values; recorded as an audit event by ${report.author.username}`);
    for (const note of report.notes) out(`- ${note}`);
    out(`the key check is now that of ${keySource(config)}: the service starts with it`);
  } finally {
    await db.close();
  }
}

runCommand('secrets:reset-lost', main);
