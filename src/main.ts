import 'reflect-metadata';
import http from 'node:http';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { ensureRootUser } from './core/db/bootstrap';
import { openDatabase } from './core/db/database';
import { createLogger } from './core/logger';

/** Process entry: config, database (embedded or DATABASE_URL), migrations, root user, listen, graceful stop. */
async function main(): Promise<void> {
  let config;
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
  const db = await openDatabase(config, logger);
  await ensureRootUser(db.orm.em.fork(), config.initialRootToken, logger);
  const { app, stop } = await buildApp({ orm: db.orm, logger, externalUrl: config.externalUrl, trustProxy: config.trustProxy });
  const server = http.createServer(app);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  logger.info({ host: config.host, port: config.port, ms: Date.now() - started }, `listening on http://${config.host}:${config.port}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
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
    logger.info('graphql server stopped');
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  process.stderr.write(`fatal: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
