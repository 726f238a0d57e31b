import type http from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { requestToken } from './core/auth/token';
import { ctxFactory, type AppEnv, type Clock, type RandomInt, type RequestCtx } from './core/context/request-ctx';
import type { DbHealth } from './core/db/db-monitor';
import type { Orm } from './core/db/orm';
import { DatabaseUnavailableError } from './core/errors/domain-errors';
import { asDomainError } from './core/errors/driver-errors';
import { contextCreationError } from './core/errors/graphql-error';
import { toRestError } from './core/errors/rest-error';
import { attachRequestInfo, startApollo } from './core/graphql/apollo';
import { graphqlDocumentGuard } from './core/graphql/document-guard';
import { parseQuery } from './core/http/query-parser';
import { corsMiddleware } from './core/http/cors';
import { pruneAuditEvents } from './core/events/audit';
import { createNotificationHub } from './core/events/notification-hub';
import { attachSubscriptions } from './core/graphql/subscriptions';
import { subscriptionSettings } from './core/graphql/subscription-settings';
import { apolloHandler } from './core/graphql/http-adapter';
import { graphiqlCsp, graphiqlPage } from './core/graphql/graphiql';
import type { SecretBox } from './core/crypto/secret-box';
import { createSharedCache, type SharedCache } from './core/db/shared-cache';
import { buildAppSchema } from './core/graphql/schema';
import { publicView } from './core/graphql/views';
import { bodyErrorHandler } from './core/http/body-error-handler';
import { requestIdFrom, withRequestContext } from './core/http/request-id';
import { DASHBOARD_CSP, SWAGGER_CSP, securityHeaders, withCsp } from './core/http/security-headers';
import { dashboardRouter } from './dashboard/dashboard-page';
import { sendStoredFile } from './core/http/stored-file';
import {
  backgroundOf,
  downloadsOf,
  envSettingsOf,
  loaderFactory,
  routesOf,
  switchesOf,
  type AppModule,
} from './core/module/app-module';
import { checkEnvSettings } from './core/module/env-settings';
import { ANONYMOUS, authenticateToken, type AuthResult } from './modules/tokens';
import { knownThrottleConfig, throttleConfig } from './modules/application-settings';
import { createRateLimiter, requestThrottle } from './core/http/rate-limit';
import { applySudo } from './modules/tokens';
import { accessLogger } from './ops/access-log';
import { createErrorReporter } from './ops/error-reporter';
import { createMetrics, type Metrics } from './ops/metrics';
import { createOps, type Ops } from './ops/ops.router';
import { buildOpenApi } from './rest/openapi';
import { compileRoutes } from './rest/route-document';
import { BODY_LIMIT_BYTES } from './rest/body-parsers';
import { buildRestRouter, sendJson } from './rest/router';
import { swaggerUiRouter } from './rest/swagger-ui';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    /** The authenticated user's id, once known (error logs). */
    userId?: number | null;
    /** The token the rate limiter authenticated, reused by the request's context (same request). */
    preAuth?: { token: string; auth: AuthResult };
  }
}

export interface AppDeps {
  orm: Orm;
  logger: Logger;
  externalUrl: string;
  /** Express `trust proxy` (TRUST_PROXY): off unless configured; only affects req.ip / req.protocol. */
  trustProxy?: boolean | number | string;
  /** Secrets at rest (core/crypto/secret-box). */
  secrets: SecretBox;
  clock?: Clock;
  /** Random integers for generated values (environment slugs); default crypto.randomInt. */
  random?: RandomInt;
  /** Module settings (PAGES_ENABLED, PAGES_HOST, ...); main passes process.env. */
  env?: AppEnv;
  /** Database probe and embedded-server state (main.ts); without it the database counts as up. */
  health?: DbHealth;
  /** CIDR list for the ops endpoints; default loopback. */
  monitoringWhitelist?: string[];
  /** The registered modules (src/modules/index.ts: MODULES). */
  modules: readonly AppModule[];
  /** A direct (session) URL for the shared cache's LISTEN connection (DATABASE_DIRECT_URL); default the ORM's URL. */
  directUrl?: string;
  /** AUDIT_EVENTS_RETENTION_DAYS: prune older audit events hourly (0 or absent: keep all). */
  auditRetentionDays?: number;
  /** CORS_ORIGINS (core/http/cors.ts); default any origin, as GitLab's API. */
  corsOrigins?: '*' | string[];
  /** false: start no module background work (system hook delivery); default true. */
  background?: boolean;
  /** True once the process is draining for shutdown: /-/readiness answers 503 (docs/scale-out.md#rolling-restarts-and-haproxy). */
  draining?: () => boolean;
  /** What /-/metrics answers: under the supervisor the instance's view from the primary; default this process's registry. */
  instanceMetrics?: () => Promise<string | undefined>;
  /** false (MONITORING_PORT set): /-/health, /-/liveness, /-/readiness and /-/metrics are not served here; default true. */
  opsOnMainPort?: boolean;
}

export interface BuiltApp {
  app: Express;
  stop: () => Promise<void>;
  /** The app's shared cache (tests wait on its invalidation events). */
  cache: SharedCache;
  /** Serves GraphQL subscriptions over WebSocket on `server`'s upgrades (docs/graphql.md#subscriptions-live-updates); undone by `stop`. */
  attach(server: http.Server): void;
  /** The ops endpoints' state, for a monitoring listener and the supervisor (ops/ops.router.ts). */
  ops: Ops;
  /** This process's metrics registry (the supervisor collects it, ops/worker-fleet.ts). */
  metrics: Metrics;
}

/** Collapses repeated slashes and drops a trailing one (python-gitlab sends both). */
function normalizeApiPath(req: Request, _res: Response, next: NextFunction): void {
  const [path, search] = req.url.split('?', 2);
  const clean = path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  if (clean !== path) req.url = search === undefined ? clean : `${clean}?${search}`;
  next();
}

/** buildApp(deps) -> express app without listen(); used by main.ts and by the tests. */
export async function buildApp(given: AppDeps): Promise<BuiltApp> {
  // One environment object for the app's life: settings are parsed once per object (env-settings.ts).
  const deps = { ...given, env: given.env ?? {} };
  checkEnvSettings(envSettingsOf(deps.modules), deps.env);
  const { orm, logger } = deps;
  // REST compiles against the whole schema; GraphQL clients see its public view (core/graphql/views.ts).
  const schema = await buildAppSchema(deps.modules);
  const publicSchema = publicView(schema);
  const newCtx = ctxFactory(loaderFactory(deps.modules));
  const metrics = createMetrics(orm, deps.health);
  const reporter = createErrorReporter(logger, metrics.dbErrors);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);
  // qs with a high arrayLimit (core/http/query-parser.ts; docs/gitlab-compatibility.md, "Parameters").
  app.set('query parser', parseQuery);

  // One line per request at level info (docs/operations.md#logs); nothing per request above that level.
  const logRequest = logger.isLevelEnabled('info') ? accessLogger(logger) : undefined;
  app.use((req, res, next) => {
    req.id = requestIdFrom(req.get('x-request-id'));
    res.setHeader('X-Request-Id', req.id);
    logRequest?.(req, res);
    // The process-level error policy (ops/process-policy.ts) logs uncaught errors with this context.
    withRequestContext(req, next);
  });
  app.use(securityHeaders);
  app.use(metrics.middleware);
  // Before the ops endpoints, the rate limits and authentication: a preflight is answered here.
  app.use(corsMiddleware(deps.corsOrigins ?? '*'));
  const ops = createOps({
    orm,
    metrics,
    health: deps.health,
    whitelist: deps.monitoringWhitelist,
    draining: deps.draining,
    metricsText: deps.instanceMetrics,
  });
  // The ops endpoints all live under /-/: other requests skip that router's path matching. With a
  // monitoring port they are served there only (docs/operations.md#monitoring-port).
  if (deps.opsOnMainPort !== false)
    app.use((req, res, next) => (req.url.startsWith('/-/') ? ops.router(req, res, next) : next()));

  // Rate limits (application settings throttle_*; docs/rest.md#rate-limits-throttle_): after the ops endpoints, which
  // are never throttled, before both surfaces. Off (the default), this costs one cached lookup.
  // One fork for raw statements only (no identity map is used): counters and the throttle settings.
  const rawEm = orm.em.fork();
  const warn = (err: unknown, msg: string) => logger.warn({ err }, msg);
  const throttle = requestThrottle({
    limiter: createRateLimiter(rawEm, warn),
    known: () => knownThrottleConfig(cache),
    settings: () => throttleConfig(rawEm, cache),
    available: () => !deps.health || deps.health.available(),
    // The request's context reuses this lookup (same token, same request).
    identify: async (req, token) => {
      const auth = await authenticateToken(orm.em.fork(), cache, token, new Date(), req.ip);
      req.preAuth = { token, auth };
      return auth.user?.id ?? null;
    },
    warn,
  });
  app.use(throttle.beforeBody);

  /** Authenticates the request; on /api/v4 an admin's Sudo header or parameter acts as another user. */
  const createCtx = async (req: Request, sudo = false): Promise<RequestCtx> => {
    // While the health probe fails, answer 503 at once instead of queueing on the pool.
    if (deps.health && !deps.health.available()) throw new DatabaseUnavailableError();
    const em = orm.em.fork();
    const clock = deps.clock;
    const now = clock ? clock.now() : new Date();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const token = requestToken(req, { body: true });
    // Reuses the throttle's lookup when it authenticated this very token (same request, same instant).
    let auth =
      req.preAuth && req.preAuth.token === token
        ? req.preAuth.auth
        : token === undefined
          ? ANONYMOUS
          : await authenticateToken(em, cache, token, now, req.ip);
    const sudoAs = sudo ? (req.get('sudo') ?? query.sudo ?? body.sudo) : undefined;
    const admin = auth.user;
    if (sudoAs !== undefined && sudoAs !== '') auth = await applySudo(em, auth, String(sudoAs));
    const request = {
      ip: req.ip ?? null,
      id: req.id ?? null,
      ...(admin && auth.user && admin.id !== auth.user.id ? { sudoBy: admin.username } : {}),
    };
    req.userId = auth.user?.id ?? null;
    return newCtx({
      em,
      user: auth.user,
      credential: auth.credential,
      tokenInvalid: auth.tokenInvalid,
      refusal: auth.refusal,
      externalUrl: deps.externalUrl,
      secrets: deps.secrets,
      cache,
      clock,
      random: deps.random,
      env: deps.env,
      request,
    });
  };

  // Compiled once: a schema change that breaks a route fails here, at start-up.
  const routes = compileRoutes(schema, routesOf(deps.modules));
  // Built on first request, not at start-up: a replacement worker listens sooner (docs/operations.md#a-crash-is-not-an-outage).
  let openapi: Record<string, unknown> | undefined;
  app.get('/api/v4/openapi.json', (_req, res) => sendJson(res, 200, (openapi ??= buildOpenApi(schema, routes))));
  app.use('/api/v4/docs', withCsp(SWAGGER_CSP), swaggerUiRouter());
  // Files the modules serve (avatars at GitLab's /uploads/… paths, and API routes that answer a file such
  // as GET /api/v4/groups/:id/avatar, so before the REST router's JSON 404): a bad token is 401, anything
  // the caller may not see the same 404 as a missing file, a DomainError its GitLab body.
  for (const d of downloadsOf(deps.modules)) {
    app.get(d.path, (req, res, next) => {
      res.locals.route = `GET ${d.path}`; // the metrics label
      createCtx(req)
        .then(async (ctx) => {
          if (ctx.tokenInvalid) return sendJson(res, 401, { message: '401 Unauthorized' });
          const file = await d.find(ctx, req.params as Record<string, string>);
          return file ? sendStoredFile(req, res, file) : sendJson(res, 404, { error: '404 Not Found' });
        })
        .catch((err: unknown) => {
          const domain = asDomainError(err);
          if (!domain) return next(err);
          const mapped = toRestError(domain);
          return sendJson(res, mapped.status, mapped.body);
        });
    });
  }
  const rest = (list: typeof routes) =>
    buildRestRouter({
      schema,
      routes: list,
      createCtx: (req) => createCtx(req, true),
      logger,
      reporter,
      externalUrl: deps.externalUrl,
      afterBody: throttle.afterBody,
    });
  app.use('/api/v4', normalizeApiPath, rest(routes));
  // spec 9: the few routes GitLab also answered under the deprecated /api/v3 (RouteDef.v3), same handlers.
  app.use('/api/v3', normalizeApiPath, rest(routes.filter((c) => c.route.v3)));

  const apollo = await startApollo(publicSchema, {
    reportError: (err, where) => reporter.report(err, { surface: 'graphql', ...where }),
  });
  const graphqlCtx = async (req: Request, res: Response): Promise<RequestCtx> => {
    const ctx = await createCtx(req).catch(contextCreationError);
    return attachRequestInfo(ctx, { reqId: req.id, setRoute: (label) => (res.locals.route = label) });
  };
  // The GraphiQL page is the switch 'graphiql': a module (feature flags) may turn it off for the caller.
  const switchOn = switchesOf(deps.modules);
  const graphiql = (req: Request, res: Response, next: NextFunction) => {
    createCtx(req)
      .then((ctx) => switchOn(ctx, 'graphiql'))
      .then(
        (on) =>
          on
            ? res.setHeader('Content-Security-Policy', graphiqlCsp()).type('html').send(graphiqlPage())
            : sendJson(res, 404, { error: '404 Not Found' }),
        next,
      );
  };
  app.get('/-/graphiql', graphiql);
  // The reference dashboard (docs/dashboard.md): static files; its data comes from POST /graphql and the WebSocket.
  app.use('/-/dashboard', withCsp(DASHBOARD_CSP), dashboardRouter());
  app.get('/graphql', (req, res, next) =>
    req.accepts(['application/json', 'text/html']) === 'text/html' ? graphiql(req, res, next) : next(),
  );
  // A POST of a JSON array is a batch of operations (core/graphql/batch.ts).
  const graphqlHandler = apolloHandler(apollo, graphqlCtx, { schema: publicSchema });
  app.use(
    '/graphql',
    express.json({ limit: BODY_LIMIT_BYTES }),
    throttle.afterBody,
    graphqlDocumentGuard,
    graphqlHandler,
  );
  // GitLab serves its GraphQL API at /api/graphql: the same endpoint under that path too.
  app.use(
    '/api/graphql',
    express.json({ limit: BODY_LIMIT_BYTES }),
    throttle.afterBody,
    graphqlDocumentGuard,
    graphqlHandler,
  );

  app.use((_req, res) => sendJson(res, 404, { error: '404 Not Found' }));
  // One handler for failures outside a route (body parsers, multipart); unexpected ones are reported once.
  app.use(
    bodyErrorHandler((err, req, res) => {
      reporter.report(err, { surface: 'http', reqId: req.id, route: req.path, userId: req.userId });
      // A DomainError here comes from authentication before the body (e.g. a refused Sudo): GitLab's body.
      const domain = asDomainError(err);
      if (domain) {
        const mapped = toRestError(domain);
        return sendJson(res, mapped.status, mapped.body);
      }
      return sendJson(res, 500, { message: '500 Internal Server Error' });
    }),
  );
  // Retention of audit events: once at start, then hourly, in batches (core/events/audit.ts).
  let pruner: NodeJS.Timeout | undefined;
  if (deps.auditRetentionDays && deps.auditRetentionDays > 0) {
    const days = deps.auditRetentionDays;
    const prune = () =>
      void pruneAuditEvents(rawEm, days)
        .then((n) => n > 0 && logger.info({ pruned: n, days }, 'pruned audit events past their retention'))
        .catch((e: unknown) => logger.warn({ err: e }, 'pruning audit events failed; retrying in an hour'));
    prune();
    pruner = setInterval(prune, 60 * 60 * 1000);
    pruner.unref();
  }
  // GraphQL subscriptions (WebSocket upgrades on the GraphQL paths), fed by PostgreSQL notifications.
  const hub = createNotificationHub(deps.directUrl ?? orm.config.getClientUrl());
  const sockets: { close(): Promise<void> }[] = [];
  const origins = deps.corsOrigins ?? '*';
  const wsCtx = (headers: Record<string, string>, ip: string | undefined) => {
    const fake = {
      get: (name: string) => headers[name.toLowerCase()],
      query: {},
      body: {},
      ip,
      id: requestIdFrom(undefined),
    };
    return createCtx(fake as unknown as Request);
  };
  const attach = (server: http.Server) => {
    sockets.push(
      attachSubscriptions(server, {
        schema: publicSchema,
        paths: ['/graphql', '/api/graphql'],
        authenticate: wsCtx,
        hub,
        logger,
        ...subscriptionSettings(deps.env),
        allowedOrigin: (origin) => origins === '*' || origin === undefined || origins.includes(origin),
      }),
    );
  };

  // The shared cache's LISTEN connection opens last: the start-up work above (schema, routes, OpenAPI,
  // Apollo) runs without yielding for seconds on a busy machine, which outlasted its 5 s connect timeout
  // (a warning and a retry at every start). Nothing reads the cache before the app answers requests.
  const cache = createSharedCache({
    connectionString: deps.directUrl ?? orm.config.getClientUrl(),
    log: (m) => logger.warn(m),
  });
  // The modules' background work (system hook delivery), unless the caller runs none (one-off tools).
  const tasks =
    deps.background === false
      ? []
      : backgroundOf(deps.modules).map((start) =>
          start({ em: orm.em.fork(), cache, secrets: deps.secrets, logger, env: deps.env }),
        );
  return {
    app,
    cache,
    attach,
    ops,
    metrics,
    stop: async () => {
      for (const s of sockets.splice(0)) await s.close();
      await hub.close();
      if (pruner) clearInterval(pruner);
      await Promise.all(tasks.map((t) => t.stop()));
      await apollo.stop();
      await cache.close();
    },
  };
}
