import 'reflect-metadata';
import http from 'node:http';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './core/db/database';
import { redactSql } from './core/errors/redact-sql';
import { secretsFrom } from './core/crypto/secret-box';
import { createLogger } from './core/logger';
import { ormModelOf } from './core/module/app-module';
import { MODULES } from './modules';
import { ensureRootUser } from './modules/tokens/root-user';

function reason(e: unknown): string {
  return redactSql(e instanceof Error ? e.message : String(e));
}

/** One clear line (what failed, what to do) instead of a stack trace. */
function startupHint(config: Config): string {
  return config.databaseUrl
    ? 'check that DATABASE_URL points to a reachable PostgreSQL and that its role owns the database'
    : `check DATA_DIR (${config.dataDir}) and the lines above; npm ci reinstalls the PostgreSQL binaries, or set DATABASE_URL to use an external server`;
}

/** Process entry: config, database (embedded or DATABASE_URL), migrations, root user, listen, graceful stop. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  let shutdown: (signal: string, code?: number) => Promise<void> = async (_s, code = 1) => process.exit(code);
  let db: Database;
  try {
    db = await openDatabase(config, logger, ormModelOf(MODULES), { onFatal: (m) => { logger.fatal(m); void shutdown('database lost', 1); } });
  } catch (e) {
    logger.fatal(`database start-up failed: ${reason(e)}; ${startupHint(config)}`);
    process.exit(1);
  }
  await ensureRootUser(db.orm.em.fork(), config.initialRootToken, logger);
  const { app, stop } = await buildApp({
    orm: db.orm,
    logger,
    externalUrl: config.externalUrl,
    trustProxy: config.trustProxy,
    health: db.health,
    monitoringWhitelist: config.monitoringWhitelist,
    secrets: secretsFrom(config),
    modules: MODULES,
    env: process.env,
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  }).catch(async (e: unknown) => {
    logger.fatal(`cannot listen on ${config.host}:${config.port}: ${reason(e)}; set PORT or HOST`);
    await db.close();
    process.exit(1);
  });
  logger.info({ host: config.host, port: config.port, ms: Date.now() - started }, `listening on http://${config.host}:${config.port}`);

  let stopping = false;
  shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    logger.info('http server closed');
    await stop();
    await db.close();
    logger.info({ exitCode: code }, 'stopped');
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  process.stderr.write(`fatal: ${e instanceof Error ? redactSql(e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
