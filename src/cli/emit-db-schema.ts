import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { openDatabase } from '../core/db/database';
import { dumpSchema } from '../core/db/schema-dump';
import { createLogger } from '../core/logger';
import { ormModelOf } from '../core/module/app-module';
import { MODULES } from '../modules';
import { startupExitCode, startupMessage } from '../ops/startup-failure';

/**
 * `npm run docs:schema`: regenerates the committed docs/schema.sql. Like `npm run seed`, it uses
 * DATABASE_URL, or the embedded PostgreSQL under DATA_DIR (the one `npm start` runs, or a fresh start
 * of it, stopped afterwards), applies the migrations as a start does, and reads the schema back.
 * That database should hold nothing the migrations did not create: the test compares with a fresh one.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const db = await openDatabase(config, logger, ormModelOf(MODULES)).catch((e: unknown) => {
    process.stderr.write(`${startupMessage(e, config)}\n`);
    process.exit(startupExitCode(e));
  });
  try {
    const target = path.resolve(__dirname, '../../docs/schema.sql');
    fs.writeFileSync(target, await dumpSchema(db.orm.em.fork()));
    process.stdout.write(`wrote ${target}\n`);
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`docs:schema failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
