import 'reflect-metadata';
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './core/db/database';
import { answerClientErrors } from './core/http/client-error-response';
import { createAppServer } from './core/runtime';
import { redactSql } from './core/errors/redact-sql';
import { secretsFrom } from './core/crypto/secret-box';
import { releaseLogFields } from './core/build-info';
import { createLogger } from './core/logger';
import { envSettingsOf, ormModelOf } from './core/module/app-module';
import { checkEnvSettings } from './core/module/env-settings';
import { MODULES } from './modules';
import type { buildApp as BuildApp } from './app';
import { runPrimary } from './ops/cluster-primary';
import { CRASH_GRACE_MS, installProcessPolicy } from './ops/process-policy';
import { watchRequests } from './ops/in-flight-requests';
import { listenMonitoring } from './ops/monitoring-server';
import { answerFleetRequests, instanceMetricsFromPrimary } from './ops/worker-fleet';
import { listenOnSupervisorSocket } from './ops/shared-listener';
import { reason, startupExitCode, startupMessage, startupSteps } from './ops/startup-failure';
import { announceDraining, announceListening, sendToSupervisor } from './ops/worker-messages';

function configOrExit(): Config {
  try {
    const config = loadConfig();
    checkEnvSettings(envSettingsOf(MODULES), process.env); // the modules' own variables (PAGES_HOST, ...)
    return config;
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/**
 * One serving process: database (embedded or DATABASE_URL), migrations, root user, listen, graceful stop.
 * Under the supervisor (`worker`), the primary has already done the once-only steps and passes the
 * database URL; the listening socket is the primary's, shared by all workers.
 */
async function serve(config: Config, logger: Logger, worker: boolean): Promise<void> {
  const started = Date.now();
  let shutdown: (signal: string, code?: number, graceMs?: number, drainMs?: number) => Promise<void> = async (
    _s,
    code = 1,
  ) => process.exit(code);
  installProcessPolicy({
    logger,
    stop: (why) => {
      announceDraining();
      void shutdown(why, 1, Math.min(config.shutdownTimeoutMs, CRASH_GRACE_MS));
    },
  });
  const secrets = secretsFrom(config, logger);
  let db: Database;
  try {
    db = await openDatabase(config, logger, ormModelOf(MODULES), {
      onFatal: (m) => {
        logger.fatal(m);
        void shutdown('database lost', 1);
      },
      // Under the supervisor the primary has run these before forking.
      once: worker ? undefined : startupSteps(config, logger, secrets, MODULES),
    });
  } catch (e) {
    logger.fatal(startupMessage(e, config));
    process.exit(startupExitCode(e));
  }
  let draining = false;
  // Loaded here, not at the top: the supervisor's primary never serves and so never loads the app (less memory).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildApp } = require('./app') as { buildApp: typeof BuildApp };
  const { app, stop, attach, ops, metrics } = await buildApp({
    orm: db.orm,
    logger,
    externalUrl: config.externalUrl,
    trustProxy: config.trustProxy,
    health: db.health,
    monitoringWhitelist: config.monitoringWhitelist,
    secrets,
    modules: MODULES,
    env: process.env,
    directUrl: db.directUrl,
    corsOrigins: config.corsOrigins,
    auditRetentionDays: config.auditRetentionDays,
    draining: () => draining,
    // Under the supervisor a scrape shows the whole instance (ops/fleet-view.ts); with MONITORING_PORT
    // the ops endpoints are served on that port only (by the primary, or below by this process).
    instanceMetrics: worker ? instanceMetricsFromPrimary : undefined,
    opsOnMainPort: config.monitoringPort === undefined,
  });
  const stopAnswering = worker
    ? answerFleetRequests({ registry: metrics.registry, readiness: ops.readiness })
    : undefined;
  // While draining, every answer closes its connection (set before the app answers): clients and
  // balancers reconnect elsewhere instead of reusing a connection that is about to be closed.
  // Requests and responses are built with express's prototypes (core/runtime, express-prototypes: no
  // per-request prototype change, so request data dies young instead of being promoted).
  // Under the supervisor each request is watched, so that the supervisor can name the one that
  // killed this process (ops/in-flight-requests.ts; tracked after the app has set its id).
  const watch = worker ? watchRequests({ logger, send: sendToSupervisor }) : undefined;
  const server = createAppServer(app, (req, res) => {
    if (draining) res.shouldKeepAlive = false;
    app(req, res);
    watch?.track(req, res);
  });
  server.keepAliveTimeout = 5000;
  answerClientErrors(server); // what the HTTP parser refuses still gets a JSON body
  attach(server);
  // A worker listens on the socket the supervisor holds (ops/shared-listener.ts), which stays open between workers.
  const listening = worker
    ? listenOnSupervisorSocket(server)
    : new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, resolve);
      });
  await listening.catch(async (e: unknown) => {
    logger.fatal(`cannot listen on ${config.host}:${config.port}: ${reason(e)}; set PORT or HOST`);
    await db.close();
    process.exit(1);
  });
  const monitor =
    worker || config.monitoringPort === undefined
      ? undefined
      : await listenMonitoring(config.monitoringHost, config.monitoringPort, config.monitoringWhitelist, {
          ...ops,
          metrics: ops.metricsText,
        }).catch(async (e: unknown) => {
          logger.fatal(
            `cannot listen on ${config.monitoringHost}:${config.monitoringPort}: ${reason(e)}; set MONITORING_PORT or MONITORING_HOST`,
          );
          await db.close();
          process.exit(1);
        });

  let stopping = false;
  shutdown = async (signal: string, code = 0, graceMs = config.shutdownTimeoutMs, drainMs = 0) => {
    if (stopping) return;
    stopping = true;
    draining = true;
    if (drainMs > 0) {
      // Rolling restarts (docs/scale-out.md#rolling-restarts-and-haproxy): the balancer's health check sees 503
      // and stops routing here, while requests it still sends are served.
      // Idle keep-alive connections stay open until the balancer has stopped routing here: closing one
      // now races with a request the balancer is sending on it (docs/scale-out.md#what-the-balancer-may-retry).
      logger.info({ signal, drainMs }, 'draining: /-/readiness answers 503, requests are still served');
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, graceMs);
    force.unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    logger.info('http server closed');
    await monitor?.close();
    stopAnswering?.();
    watch?.stop();
    await stop();
    await db.close();
    logger.info({ exitCode: code }, 'stopped');
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0, config.shutdownTimeoutMs, config.shutdownDrainMs));
  process.on('SIGINT', () => void shutdown('SIGINT', 0, config.shutdownTimeoutMs, config.shutdownDrainMs));
  // Logged once the signal handlers are in place: a supervisor or test that stops the process as soon
  // as it reads this line gets the drain and the graceful stop, never the default kill of a signal that
  // arrived between the line and the handlers.
  if (monitor)
    logger.info(
      { host: config.monitoringHost, port: monitor.port },
      `monitoring endpoints on http://${config.monitoringHost}:${monitor.port}`,
    );
  logger.info(
    { host: config.host, port: config.port, ms: Date.now() - started, ...releaseLogFields() },
    `listening on http://${config.host}:${config.port}`,
  );
  if (worker) announceListening();
}

/**
 * Process entry. WORKERS ≥ 1 (default: one per core): this process is the supervisor's primary
 * (ops/cluster-primary.ts) and the forked workers serve. WORKERS=0: this process serves alone.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  if (cluster.isWorker) return serve(config, logger.child({ worker: cluster.worker?.id }), true);
  if (config.workers === 0) return serve(config, logger, false);
  return runPrimary(config, logger, MODULES);
}

main().catch((e: unknown) => {
  process.stderr.write(`fatal: ${e instanceof Error ? redactSql(e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
