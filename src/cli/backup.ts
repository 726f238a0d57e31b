import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { buildInfo } from '../core/build-info';
import { writeBackup } from '../core/db/backup-file';
import { commandDatabase, CommandFailed, commandLogger, runCommand } from './command-database';

/**
 * `npm run backup -- <file>`: a consistent online backup of the database (DATABASE_URL, or the
 * embedded PostgreSQL of DATA_DIR) into `<file>` (gzip, mode 0600; docs/operations.md#backup). The
 * service may keep serving: everything is read from one snapshot. The secrets key is not in it: keep
 * `npm run secrets:backup`'s file apart (docs/operations.md#keys). Exit 0 written, 1 failed (no file
 * is left but `<file>.partial` removed), 2 wrong usage.
 */
const out = (m: string) => process.stdout.write(`${m}\n`);

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || file.startsWith('-')) throw new CommandFailed('give the backup file: npm run backup -- <file>', 2);
  if (fs.existsSync(file)) throw new CommandFailed(`${file} exists: give a new file name`, 2);
  if (!fs.existsSync(path.dirname(path.resolve(file))))
    throw new CommandFailed(`the folder of ${file} does not exist`, 2);
  const config = loadConfig();
  const logger = commandLogger(config);
  const db = await commandDatabase(config, logger);
  try {
    const started = Date.now();
    const { version, revision } = buildInfo();
    const report = await writeBackup(db.url, file, { version, revision });
    const rows = Object.values(report.tables).reduce((a, t) => a + t.rows, 0);
    for (const [table, t] of Object.entries(report.tables)) if (t.rows > 0) out(`${table}: ${t.rows}`);
    out(
      `backed up ${rows} rows of ${Object.keys(report.tables).length} tables at migration ${report.manifest.migrations.at(-1)} ` +
        `into ${file} (${report.bytes} bytes) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    out(
      report.manifest.key_check
        ? `its secrets open only with this database's secrets key (key check ${report.manifest.key_check.slice(0, 12)}…): keep a copy of it apart with npm run secrets:backup`
        : 'the database has no secrets key check yet',
    );
  } finally {
    await db.stop();
  }
}

runCommand('backup', main);
