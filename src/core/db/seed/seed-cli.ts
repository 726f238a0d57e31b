import 'reflect-metadata';
import { loadConfig } from '../../../config';
import { createLogger } from '../../logger';
import { ensureRootUser } from '../bootstrap';
import { openDatabase } from '../database';
import { seedDemo } from './demo-data';
import { seedScale } from './scale-data';

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
  const db = await openDatabase(config, logger);
  try {
    await ensureRootUser(db.orm.em.fork(), config.initialRootToken, logger);
    await seedDemo(db.orm.em.fork(), config.externalUrl, log);
    if (scale > 0) {
      const started = Date.now();
      await seedScale(db.orm.em.fork(), scale);
      log(`scale data: ${scale} unit(s) in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    }
  } finally {
    await db.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`seed failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
