import type { Logger } from 'pino';
import type { Config } from '../config';
import { secretsFrom, type SecretBox } from '../core/crypto/secret-box';
import { openDatabase } from '../core/db/database';
import { startOrReuseEmbedded, type EmbeddedHandle } from '../core/db/embedded/embedded-postgres';
import type { Orm } from '../core/db/orm';
import { ormModelOf, type AppModule } from '../core/module/app-module';
import { installProcessPolicy } from './process-policy';
import { releaseLogFields } from '../core/build-info';
import { reason, startupExitCode, startupMessage, startupSteps } from './startup-failure';
import { openSharedListener, type SharedListener } from './shared-listener';
import { startSupervisor, type Supervisor } from './supervisor';
import { fleetView } from './fleet-view';
import { listenMonitoring, type MonitoringServer } from './monitoring-server';

/** PostgreSQL's default superuser_reserved_connections. */
const RESERVED_CONNECTIONS = 3;

/** Each worker holds its pool, the health probe's connection and the shared cache's LISTEN connection. */
async function warnConnectionBudget(orm: Orm, config: Config, logger: Logger): Promise<void> {
  const rows = await orm.em.getConnection().execute<{ max_connections: string }[]>('show max_connections');
  const max = Number(rows[0]?.max_connections);
  const need = config.workers * (config.db.poolMax + 2);
  if (need > max - RESERVED_CONNECTIONS) {
    logger.warn(
      { need, max },
      `WORKERS × (DB_POOL_MAX + 2) = ${need} connections may exceed the server's max_connections (${max}); lower WORKERS or DB_POOL_MAX`,
    );
  }
}

/**
 * `npm start` with WORKERS ≥ 1: the primary binds the port, does what must happen once (secrets key,
 * embedded PostgreSQL, migrations, root user), closes its pool, then supervises the workers, which
 * listen on its socket and connect to the same database URL. It owns the embedded server: stopped after the last worker has exited.
 * Start-up failures keep the single-process behaviour: one fatal line, exit 1 (2 for configuration).
 */
export async function runPrimary(config: Config, logger: Logger, modules: readonly AppModule[]): Promise<void> {
  const started = Date.now();
  let supervisor: Supervisor | undefined;
  let embedded: EmbeddedHandle | undefined;
  let monitor: MonitoringServer | undefined;
  let stopping = false;
  // The instance's one view: every worker's metrics, labelled by slot; readiness from a serving worker.
  const fleet = fleetView(
    () => supervisor?.serving() ?? [],
    () => stopping,
  );
  const shutdown = async (why: string, code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal: why }, 'shutting down: workers stop accepting connections and finish in-flight requests');
    await supervisor?.stop();
    // Open until the workers are gone: the balancer's check reads 503 "shutting down" meanwhile.
    await monitor?.close();
    fleet.stop();
    await embedded?.stop();
    logger.info({ exitCode: code }, 'stopped');
    process.exit(code);
  };
  installProcessPolicy({ logger, stop: (why) => void shutdown(why, 1) });
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  process.on('SIGINT', () => void shutdown('SIGINT', 0));

  // Bound first (a port in use fails before the database starts); workers listen on this socket.
  let listener: SharedListener;
  try {
    listener = await openSharedListener(config.host, config.port);
  } catch (e) {
    logger.fatal(`cannot listen on ${config.host}:${config.port}: ${reason(e)}; set PORT or HOST`);
    process.exit(1);
  }

  if (config.monitoringPort !== undefined) {
    try {
      monitor = await listenMonitoring(config.monitoringHost, config.monitoringPort, config.monitoringWhitelist, {
        live: () => embedded?.healthy() ?? true,
        readiness: fleet.readiness,
        metrics: fleet.metrics,
        contentType: fleet.contentType,
      });
    } catch (e) {
      logger.fatal(
        `cannot listen on ${config.monitoringHost}:${config.monitoringPort}: ${reason(e)}; set MONITORING_PORT or MONITORING_HOST`,
      );
      process.exit(1);
    }
  }

  // Created here, before any worker reads it (the file is created race-free anyway, but once is clearer).
  let secrets: SecretBox;
  try {
    secrets = secretsFrom(config, logger);
  } catch (e) {
    logger.fatal(
      `cannot read or create the secrets key: ${reason(e)}; set SECRETS_KEY or make DATA_DIR (${config.dataDir}) writable`,
    );
    process.exit(1);
  }
  let url = config.databaseUrl;
  try {
    if (!url) {
      embedded = await startOrReuseEmbedded({
        dataDir: config.dataDir,
        port: config.embeddedPgPort,
        log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
        onFatal: (m) => {
          logger.fatal(m);
          void shutdown('database lost', 1);
        },
      });
      url = embedded.url;
    }
    const db = await openDatabase({ ...config, databaseUrl: url }, logger, ormModelOf(modules), {
      once: startupSteps(config, logger, secrets, modules),
    });
    try {
      await warnConnectionBudget(db.orm, config, logger);
    } finally {
      await db.close();
    }
  } catch (e) {
    logger.fatal(startupMessage(e, config));
    await embedded?.stop();
    process.exit(startupExitCode(e));
  }
  if (stopping) return;

  supervisor = startSupervisor({
    workers: config.workers,
    logger,
    listener,
    env: config.databaseUrl ? {} : { DATABASE_URL: url },
    stopTimeoutMs: config.shutdownDrainMs + config.shutdownTimeoutMs + 5000,
    onGiveUp: (code) => void shutdown('a worker failed to start', code),
  });
  await supervisor.ready;
  if (monitor)
    logger.info(
      { host: config.monitoringHost, port: monitor.port },
      `monitoring endpoints on http://${config.monitoringHost}:${monitor.port}`,
    );
  logger.info(
    {
      host: config.host,
      port: listener.port,
      workers: config.workers,
      ms: Date.now() - started,
      ...releaseLogFields(),
    },
    `listening on http://${config.host}:${listener.port} with ${config.workers} worker${config.workers === 1 ? '' : 's'}`,
  );
}
