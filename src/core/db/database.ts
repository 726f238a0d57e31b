import { Client } from 'pg';
import type { Logger } from 'pino';
import type { OrmModel } from '../module/app-module';
import type { Config } from '../../config';
import { startDbMonitor, type DbHealth } from './db-monitor';
import { startOrReuseEmbedded } from './embedded/embedded-postgres';
import { initOrm, migrate, type Orm } from './orm';

export interface Database {
  orm: Orm;
  /** A direct (session) connection URL: DATABASE_DIRECT_URL, else the URL the pool uses. */
  directUrl: string;
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
  /**
   * Start-up steps that must not run in two instances at once (key check, root user): run after the
   * migrations, under the same advisory lock.
   */
  once?: (orm: Orm) => Promise<void>;
}

/** pg_advisory_lock key of the start-up section (migrations and `once`): any fixed bigint. */
export const STARTUP_LOCK = 7_364_021_113;

/**
 * Runs `fn` while holding the start-up advisory lock on its own session connection to `directUrl`
 * (a transaction pooler would release a session lock at once: hence the direct URL). Instances that
 * start together queue here; each then finds the migrations applied and the key check stored.
 */
export async function withStartupLock<T>(
  directUrl: string,
  logger: Logger,
  timeoutMs: number,
  fn: () => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: directUrl, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined); // a lost session surfaces as the failing query below
  await client.connect();
  try {
    const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [STARTUP_LOCK]);
    if (!got.rows[0].ok) {
      logger.info('another instance is migrating or starting up on this database; waiting for it');
      await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    }
    return await fn();
  } finally {
    // Ending the session releases the lock too (also when this process dies mid-way).
    await client.end().catch(() => undefined);
  }
}

async function warnIfSuperuser(orm: Orm, logger: Logger): Promise<void> {
  const rows = await orm.em
    .getConnection()
    .execute<{ rolsuper: boolean }[]>('select rolsuper from pg_roles where rolname = current_user');
  if (rows[0]?.rolsuper)
    logger.warn(
      'DATABASE_URL connects as a PostgreSQL superuser; use a role that owns only this database (docs/security.md#database-role)',
    );
}

/**
 * DATABASE_URL set: use that server and start nothing. Otherwise start (or reuse, when another process
 * of this service already runs it) the supervised embedded PostgreSQL under DATA_DIR, as a
 * non-superuser role that owns the database. Then apply migrations and start the health probe.
 */
export async function openDatabase(
  config: Config,
  logger: Logger,
  model: OrmModel,
  opts: OpenOptions = {},
): Promise<Database> {
  let url = config.databaseUrl;
  let stopEmbedded = async () => undefined as void;
  let live = () => true;
  let embeddedPid = (): number | undefined => undefined;
  if (!url) {
    const handle = await startOrReuseEmbedded({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
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
  const directUrl = (config.databaseUrl && config.databaseDirectUrl) || url;
  let orm: Orm | undefined;
  try {
    orm = await initOrm({
      clientUrl: url,
      model,
      poolMax,
      timeouts,
      driverLog: (m) => logger.debug(`database driver: ${m}`),
    });
    const opened = orm;
    await withStartupLock(directUrl, logger, timeouts.connectTimeoutMs, async () => {
      const applied = await migrate(opened);
      if (applied > 0) logger.info({ applied }, 'applied database migrations');
      await opts.once?.(opened);
    });
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
    onChange: (ok) =>
      ok
        ? logger.info('database reachable again')
        : logger.warn('database unreachable: answering 503 until it is back'),
  });
  const ready = orm;
  return {
    orm: ready,
    directUrl,
    health: monitor,
    embeddedPid,
    close: async () => {
      await monitor.stop();
      await ready.close(true).catch((e: unknown) => logger.warn({ err: e }, 'closing the database pool failed'));
      await stopEmbedded();
    },
  };
}
