import crypto from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { expressMiddleware } from '@as-integrations/express5';
import qs from 'qs';
import type { Logger } from 'pino';
import { extractToken } from './core/auth/token';
import { ctxFactory, type Clock, type RequestCtx } from './core/context/request-ctx';
import type { SecretBox } from './core/crypto/secret-box';
import type { Orm } from './core/db/orm';
import { createSharedCache, type SharedCache } from './core/db/shared-cache';
import { startApollo } from './core/graphql/apollo';
import { graphiqlPage } from './core/graphql/graphiql';
import { buildAppSchema } from './core/graphql/schema';
import { loaderFactory, routesOf, switchesOf, type AppModule } from './core/module/app-module';
import { authenticateToken } from './modules/tokens/authenticate';
import { applySudo } from './modules/tokens/sudo';
import { createMetrics } from './ops/metrics';
import { opsRouter } from './ops/ops.router';
import { buildOpenApi } from './rest/openapi';
import { compileRoute } from './rest/route-document';
import { buildRestRouter, sendJson } from './rest/router';
import { swaggerUiRouter } from './rest/swagger-ui';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  externalUrl: string;
  /** Secrets at rest (core/crypto/secret-box). */
  secrets: SecretBox;
  clock?: Clock;
  /** The registered modules (src/modules/index.ts: MODULES). */
  modules: readonly AppModule[];
}

export interface BuiltApp {
  app: Express;
  stop: () => Promise<void>;
  /** The app's shared cache (tests wait on its invalidation events). */
  cache: SharedCache;
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
  const schema = await buildAppSchema(deps.modules);
  const newCtx = ctxFactory(loaderFactory(deps.modules));
  const cache = createSharedCache({ connectionString: orm.config.getClientUrl(), log: (m) => logger.warn(m) });
  const metrics = createMetrics();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);
  // qs with a high arrayLimit: `a[]=…` lists longer than 20 items stay arrays (docs/gitlab-compatibility.md, "Parameters").
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
  app.use(opsRouter(orm, metrics));

  /** Authenticates the request; on /api/v4 an admin's Sudo header or parameter acts as another user. */
  const createCtx = async (req: Request, sudo = false): Promise<RequestCtx> => {
    const em = orm.em.fork();
    const clock = deps.clock;
    const now = clock ? clock.now() : new Date();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const token = extractToken({ header: (n) => req.get(n), param: (n) => query[n] ?? body[n] });
    let auth = await authenticateToken(em, token, now);
    const sudoAs = sudo ? (req.get('sudo') ?? query.sudo ?? body.sudo) : undefined;
    if (sudoAs !== undefined && sudoAs !== '') auth = await applySudo(em, auth, String(sudoAs));
    return newCtx({ em, user: auth.user, credential: auth.credential, tokenInvalid: auth.tokenInvalid, externalUrl: deps.externalUrl, secrets: deps.secrets, cache, clock });
  };

  // Compiled once: a schema change that breaks a route fails here, at start-up.
  const routes = routesOf(deps.modules).map((r) => compileRoute(schema, r));
  const openapi = buildOpenApi(schema, routes);
  app.get('/api/v4/openapi.json', (_req, res) => sendJson(res, 200, openapi));
  app.use('/api/v4/docs', swaggerUiRouter());
  app.use('/api/v4', normalizeApiPath, buildRestRouter({ schema, routes, createCtx: (req) => createCtx(req, true), logger }));

  const apollo = await startApollo(schema);
  // The GraphiQL page is the switch 'graphiql': a module (feature flags) may turn it off for the caller.
  const switchOn = switchesOf(deps.modules);
  const graphiql = (req: Request, res: Response, next: NextFunction) => {
    createCtx(req)
      .then((ctx) => switchOn(ctx, 'graphiql'))
      .then((on) => (on ? res.type('html').send(graphiqlPage()) : sendJson(res, 404, { error: '404 Not Found' })), next);
  };
  app.get('/-/graphiql', graphiql);
  app.get('/graphql', (req, res, next) => (req.accepts(['application/json', 'text/html']) === 'text/html' ? graphiql(req, res, next) : next()));
  app.use('/graphql', express.json({ limit: '2mb' }), expressMiddleware(apollo, { context: ({ req }) => createCtx(req) }));

  app.use((_req, res) => sendJson(res, 404, { error: '404 Not Found' }));
  app.use((err: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.parse.failed') return sendJson(res, 400, { error: 'The request body is not valid JSON' });
    if (err.status && err.status < 500) return sendJson(res, err.status, { error: err.message });
    logger.error({ err, reqId: req.id }, 'unhandled error');
    return sendJson(res, 500, { message: '500 Internal Server Error' });
  });
  return {
    app,
    cache,
    stop: async () => {
      await apollo.stop();
      await cache.close();
    },
  };
}
