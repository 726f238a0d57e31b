import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig, type Config } from '../config';
import { secretBox } from '../core/crypto/secret-box';
import { configuredKey, installKeyFile, readSecretsFile } from '../core/crypto/secrets-file';
import { BadBackup, loadBackup, readManifest, type BackupManifest } from '../core/db/backup-file';
import { withStartupLock } from '../core/db/database';
import { MIGRATIONS } from '../core/db/migrations';
import { initOrm, migrate } from '../core/db/orm';
import { hasUsers } from '../core/db/table-rows';
import { ormModelOf } from '../core/module/app-module';
import { MODULES } from '../modules';
import { commandDatabase, CommandFailed, commandLogger, runCommand } from './command-database';

/**
 * `npm run restore -- <file> [--secrets <secrets file>] [--without-key]` (docs/operations.md#restore):
 * loads a data backup into the configured database (DATABASE_URL, or the embedded PostgreSQL of a
 * fresh DATA_DIR), which must have no users. The empty target is migrated to the backup's migration
 * level, the rows loaded and verified (counts and checksums) in one transaction, then the migrations
 * this version adds run. The configured secrets key must be the backup's (its key check): else the
 * restore refuses unless `--without-key` (the sealed values are then reset with
 * `npm run secrets:reset-lost`). No key file is created as a side effect; `--secrets` installs the
 * key of a secrets backup as DATA_DIR/secrets.key (embedded default only).
 * Exit 0 restored, 1 failed (target without the backup's rows), 2 wrong usage or key.
 */
const out = (m: string) => process.stdout.write(`${m}\n`);
const USAGE = 'usage: npm run restore -- <backup file> [--secrets <secrets backup file>] [--without-key]';

interface Args {
  file: string;
  secrets?: string;
  withoutKey: boolean;
}

function argsOf(argv: string[]): Args {
  const args: Partial<Args> = { withoutKey: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--without-key') args.withoutKey = true;
    else if (a === '--secrets' && argv[i + 1]) args.secrets = argv[++i];
    else if (!a.startsWith('-') && !args.file) args.file = a;
    else throw new CommandFailed(`unexpected argument ${a}\n${USAGE}`, 2);
  }
  if (!args.file) throw new CommandFailed(`give the backup file\n${USAGE}`, 2);
  if (!fs.existsSync(args.file)) throw new CommandFailed(`${args.file} does not exist`, 2);
  return args as Args;
}

/**
 * The key the restored database will be opened with, checked against the backup's key check before
 * anything is written. Answers the key to install as DATA_DIR/secrets.key (from `--secrets`), if any.
 */
function checkKey(args: Args, config: Config, manifest: BackupManifest): Buffer | undefined {
  let key = configuredKey(config);
  let previous = config.secretsKeyPrevious;
  let where = config.secretsKey ? 'SECRETS_KEY' : `${config.dataDir}/secrets.key`;
  let install: Buffer | undefined;
  if (args.secrets) {
    if (config.databaseUrl)
      throw new CommandFailed(
        `--secrets installs DATA_DIR/secrets.key for the embedded default; with DATABASE_URL set SECRETS_KEY to the secrets_key in ${args.secrets}`,
        2,
      );
    const fromFile = readSecretsFile(args.secrets);
    if (key && !key.equals(fromFile.key))
      throw new CommandFailed(`${where} holds another key than ${args.secrets}: leave out one of them`, 2);
    ({ key, previous } = fromFile);
    where = args.secrets;
    install = fromFile.key;
  }
  if (manifest.key_check === null) return install;
  const opens = key !== undefined && secretBox(key, { previous }).keyChecks().includes(manifest.key_check);
  if (opens) return install;
  const problem = key
    ? `${where} is not the secrets key of this backup (its key check differs)`
    : 'no secrets key is configured (SECRETS_KEY unset and no DATA_DIR/secrets.key)';
  if (args.withoutKey) {
    out(
      `${problem}: restoring anyway (--without-key). The service will refuse to start until npm run secrets:reset-lost resets the sealed values (docs/operations.md#keys)`,
    );
    return undefined;
  }
  throw new CommandFailed(
    `${problem}. Give the secrets backup of that database with --secrets <file>, set SECRETS_KEY to its key, ` +
      'or restore with --without-key and then reset the values it seals with npm run secrets:reset-lost (docs/operations.md#keys)',
    2,
  );
}

/** Refuses a backup made by a newer version (migrations this code does not know). */
function checkMigrations(manifest: BackupManifest): void {
  const known = new Set([...MIGRATIONS, ...ormModelOf(MODULES).migrations].map((m) => m.name));
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0)
    throw new CommandFailed(
      `the backup was made by a newer version of the service (migrations this version does not have: ${unknown.slice(0, 3).join(', ')}): restore it with that version or a later one`,
      1,
    );
}

async function main(): Promise<void> {
  const args = argsOf(process.argv.slice(2));
  const config = loadConfig();
  const logger = commandLogger(config);
  const manifest = await readManifest(args.file).catch((e: unknown) => {
    throw e instanceof BadBackup ? new CommandFailed(e.message, 1) : e;
  });
  checkMigrations(manifest);
  const install = checkKey(args, config, manifest);
  const db = await commandDatabase(config, logger);
  try {
    if (!db.owned)
      throw new CommandFailed(
        `the service is running on ${config.dataDir}; stop it and restore into a new DATA_DIR`,
        1,
      );
    const started = Date.now();
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const orm = await initOrm({ clientUrl: db.url, model: ormModelOf(MODULES), poolMax: 2, timeouts: config.db });
    try {
      // Under the start-up lock: an instance started meanwhile waits, then finds the restored data.
      const report = await withStartupLock(db.url, logger, config.db.connectTimeoutMs, async () => {
        if (await hasUsers(c))
          throw new CommandFailed('the target database already has users: restore into a new, empty database', 1);
        const migrator = orm.getMigrator();
        const done = new Set((await migrator.getExecutedMigrations()).map((m) => m.name));
        const pending = manifest.migrations.filter((m) => !done.has(m));
        if (pending.length > 0) await migrator.up({ migrations: pending });
        const tables = await loadBackup(c, args.file, manifest);
        return { tables, later: await migrate(orm) };
      });
      const rows = Object.values(report.tables).reduce((a, t) => a + t.rows, 0);
      for (const [table, t] of Object.entries(report.tables)) if (t.rows > 0) out(`${table}: ${t.rows}`);
      out(
        `restored ${rows} rows of ${Object.keys(report.tables).length} tables from ${args.file} (made ${manifest.created_at}), ` +
          `counts and checksums verified, in ${((Date.now() - started) / 1000).toFixed(1)} s` +
          (report.later > 0 ? `; then applied ${report.later} newer migrations` : ''),
      );
    } finally {
      await orm.close(true);
      await c.end();
    }
    if (install && installKeyFile(config.dataDir, install) === 'written')
      out(`wrote the key of ${args.secrets} to ${path.join(config.dataDir, 'secrets.key')}`);
  } catch (e) {
    throw e instanceof BadBackup ? new CommandFailed(e.message, 1) : e;
  } finally {
    await db.stop();
  }
}

runCommand('restore', main);
