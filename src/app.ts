import crypto from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { expressMiddleware } from '@as-integrations/express5';
import qs from 'qs';
import type { Logger } from 'pino';
import { authenticateToken } from './core/auth/authenticate';
import { extractToken } from './core/auth/token';
import { createRequestCtx, type Clock, type RequestCtx } from './core/context/request-ctx';
import type { DbHealth } from './core/db/db-monitor';
import type { Orm } from './core/db/orm';
import { DatabaseUnavailableError } from './core/errors/domain-errors';
import { asDomainError } from './core/errors/driver-errors';
import { contextCreationError } from './core/errors/graphql-error';
import { toRestError } from './core/errors/rest-error';
import { attachRequestInfo, startApollo } from './core/graphql/apollo';
import { graphiqlPage } from './core/graphql/graphiql';
import { buildAppSchema } from './core/graphql/schema';
import { createErrorReporter } from './ops/error-reporter';
import { createMetrics } from './ops/metrics';
import { opsRouter } from './ops/ops.router';
import { buildOpenApi } from './rest/openapi';
import { compileRoute } from './rest/route-document';
import { REST_ROUTES } from './rest/routes';
import { buildRestRouter, sendJson } from './rest/router';
import { swaggerUiRouter } from './rest/swagger-ui';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    /** The authenticated user's id, once known (error logs). */
    userId?: number | null;
  }
}

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  externalUrl: string;
  clock?: Clock;
  /** Database probe and embedded-server state (main.ts); without it the database counts as up. */
  health?: DbHealth;
  /** CIDR list for the ops endpoints; default loopback. */
  monitoringWhitelist?: string[];
}

export interface BuiltApp {
  app: Express;
  stop: () => Promise<void>;
}

/** Collapses repeated slashes and drops a trailing one (python-gitlab sends both). */
function normalizeApiPath(req: Request, _res: Response, next: NextFunction): void {
  const [path, search] = req.url.split('?', 2);
  const clean = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (clean !== path) req.url = search === undefined ? clean : `${clean}?${search}`;
  next();
}

/** buildApp(deps) -> express app without listen(); used by main.ts and by the tests. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const { orm, logger } = deps;
  const schema = await buildAppSchema();
  const metrics = createMetrics(orm);
  const reporter = createErrorReporter(logger, metrics.dbErrors);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);
  // qs with a high arrayLimit: `a[]=…` lists longer than 20 items stay arrays (stack-findings §5).
  app.set('query parser', (s: string) => qs.parse(s, { arrayLimit: 1000, depth: 5, parameterLimit: 10000 }));

  app.use((req, res, next) => {
    req.id = (req.get('x-request-id') || crypto.randomUUID()).slice(0, 64);
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info({ reqId: req.id, method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }, 'request');
    });
    next();
  });
  app.use(metrics.middleware);
  app.use(opsRouter({ orm, metrics, health: deps.health, whitelist: deps.monitoringWhitelist }));

  const createCtx = async (req: Request): Promise<RequestCtx> => {
    // While the health probe fails, answer 503 at once instead of queueing on the pool.
    if (deps.health && !deps.health.available()) throw new DatabaseUnavailableError();
    const em = orm.em.fork();
    const clock = deps.clock;
    const now = clock ? clock.now() : new Date();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const token = extractToken({ header: (n) => req.get(n), param: (n) => query[n] ?? body[n] });
    const auth = await authenticateToken(em, token, now);
    req.userId = auth.user?.id ?? null;
    return createRequestCtx({ em, user: auth.user, tokenInvalid: auth.tokenInvalid, externalUrl: deps.externalUrl, clock });
  };

  const openapi = buildOpenApi(schema, REST_ROUTES.map((r) => compileRoute(schema, r)));
  app.get('/api/v4/openapi.json', (_req, res) => sendJson(res, 200, openapi));
  app.use('/api/v4/docs', swaggerUiRouter());
  app.use('/api/v4', normalizeApiPath, buildRestRouter({ schema, routes: REST_ROUTES, createCtx, logger, reporter }));

  const apollo = await startApollo(schema, { reportError: (err, where) => reporter.report(err, { surface: 'graphql', ...where }) });
  const graphqlCtx = async (req: Request, res: Response): Promise<RequestCtx> => {
    const ctx = await createCtx(req).catch(contextCreationError);
    return attachRequestInfo(ctx, { reqId: req.id, setRoute: (label) => (res.locals.route = label) });
  };
  const graphiql = (_req: Request, res: Response) => res.type('html').send(graphiqlPage());
  app.get('/-/graphiql', graphiql);
  app.get('/graphql', (req, res, next) => (req.accepts(['application/json', 'text/html']) === 'text/html' ? graphiql(req, res) : next()));
  app.use('/graphql', express.json({ limit: '2mb' }), expressMiddleware(apollo, { context: ({ req, res }) => graphqlCtx(req, res) }));

  app.use((_req, res) => sendJson(res, 404, { error: '404 Not Found' }));
  app.use((err: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.parse.failed') return sendJson(res, 400, { error: 'The request body is not valid JSON' });
    if (err.status && err.status < 500) return sendJson(res, err.status, { error: err.message });
    reporter.report(err, { surface: 'http', reqId: req.id, route: req.path, userId: req.userId });
    const domain = asDomainError(err);
    if (domain?.code === 'UNAVAILABLE') return sendJson(res, 503, toRestError(domain).body);
    return sendJson(res, 500, { message: '500 Internal Server Error' });
  });
  return { app, stop: () => apollo.stop() };
}
