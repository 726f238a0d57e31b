import type { Logger } from 'pino';
import type { OrmModel } from '../module/app-module';
import type { Config } from '../../config';
import { startDbMonitor, type DbHealth } from './db-monitor';
import { startOrReuseEmbedded } from './embedded/embedded-postgres';
import { initOrm, migrate, type Orm } from './orm';

export interface Database {
  orm: Orm;
  health: DbHealth;
  /** pid of the embedded postmaster this process supervises, if any. */
  embeddedPid: () => number | undefined;
  /** Closes the pool and stops an embedded server this process started. */
  close: () => Promise<void>;
}

export interface OpenOptions {
  /** The embedded server died for good; main.ts logs and exits non-zero. */
  onFatal?: (message: string) => void;
  /** Non-durable settings (throwaway test clusters). */
  ephemeral?: boolean;
  /** Restart attempts of a dead embedded server before onFatal (default 6, about 12 s). */
  restartAttempts?: number;
}

async function warnIfSuperuser(orm: Orm, logger: Logger): Promise<void> {
  const rows = await orm.em.getConnection().execute<{ rolsuper: boolean }[]>('select rolsuper from pg_roles where rolname = current_user');
  if (rows[0]?.rolsuper) logger.warn('DATABASE_URL connects as a PostgreSQL superuser; use a role that owns only this database (README, Configuration)');
}

/**
 * DATABASE_URL set: use that server and start nothing. Otherwise start (or reuse, when another process
 * of this service already runs it) the supervised embedded PostgreSQL under DATA_DIR, as a
 * non-superuser role that owns the database. Then apply migrations and start the health probe.
 */
export async function openDatabase(config: Config, logger: Logger, model: OrmModel, opts: OpenOptions = {}): Promise<Database> {
  let url = config.databaseUrl;
  let stopEmbedded = async () => undefined as void;
  let live = () => true;
  let embeddedPid = (): number | undefined => undefined;
  if (!url) {
    const handle = await startOrReuseEmbedded({
      dataDir: config.dataDir,
      ephemeral: opts.ephemeral,
      restartAttempts: opts.restartAttempts,
      log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
      onFatal: (m) => (opts.onFatal ? opts.onFatal(m) : logger.error(m)),
    });
    url = handle.url;
    stopEmbedded = handle.stop;
    live = handle.healthy;
    embeddedPid = handle.pid;
  }
  const { poolMax, probeIntervalMs, ...timeouts } = config.db;
  let orm: Orm | undefined;
  try {
    orm = await initOrm({ clientUrl: url, model, poolMax, timeouts, driverLog: (m) => logger.debug(`database driver: ${m}`) });
    const applied = await migrate(orm);
    if (applied > 0) logger.info({ applied }, 'applied database migrations');
    if (config.databaseUrl) await warnIfSuperuser(orm, logger);
  } catch (e) {
    await orm?.close(true).catch(() => undefined);
    await stopEmbedded();
    throw e;
  }
  const monitor = await startDbMonitor({
    url,
    intervalMs: probeIntervalMs,
    timeoutMs: timeouts.connectTimeoutMs,
    live,
    onChange: (ok) => (ok ? logger.info('database reachable again') : logger.warn('database unreachable: answering 503 until it is back')),
  });
  const ready = orm;
  return {
    orm: ready,
    health: monitor,
    embeddedPid,
    close: async () => {
      await monitor.stop();
      await ready.close(true).catch((e: unknown) => logger.warn({ err: e }, 'closing the database pool failed'));
      await stopEmbedded();
    },
  };
}
