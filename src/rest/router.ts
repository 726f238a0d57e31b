import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { RequestCtx } from '../core/context/request-ctx';
import { authorize } from '../core/auth/allow';
import { ParamError } from '../core/errors/domain-errors';
import { asDomainError } from '../core/errors/driver-errors';
import type { ErrorReporter } from '../ops/error-reporter';
import { INTERNAL_ERROR, ROUTE_NOT_FOUND, toRestError, type RestError } from '../core/errors/rest-error';
import { keysetHeaders, linkBase, paginationHeaders } from '../core/pagination/headers';
import { PaginationMode, type Page } from '../core/pagination/page';
import { decodeCursor } from '../core/pagination/cursor';
import { parseUnmodifiedSince } from '../core/db/delete-claim';
import { includeVariables, includeVariable, writeList, writerOf, type WireShape } from '../core/wire/wire';
import { routeBodyPipeline } from './body-parsers';
import { readParams } from './params';
import type { CompiledRoute } from './route-document';
import type { RouteDef } from './route';

export interface RestDeps {
  schema: GraphQLSchema;
  /** The route table, compiled once at start-up (app.ts shares it with the OpenAPI builder). */
  routes: CompiledRoute[];
  /** Authenticates (token from header, query or body) and builds the request context. */
  createCtx: (req: Request) => Promise<RequestCtx>;
  logger: Logger;
  /** Logs unexpected errors once (redacted) and counts database errors. */
  reporter?: ErrorReporter;
  /** EXTERNAL_URL: the base of Link headers. */
  externalUrl: string;
  /** Run once the body is read, before the route's operation (the rate limits charge a token found in the body). */
  afterBody?: RequestHandler;
}

/** python-gitlab 3.x decodes only responses whose Content-Type is exactly `application/json`. */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

function sendJsonText(res: Response, status: number, text: string, headers: Record<string, string> = {}): void {
  res.status(status);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function sendError(res: Response, err: RestError): void {
  sendJson(res, err.status, err.body);
}

/** Link URLs start from EXTERNAL_URL and the (normalized) path called, never from Host / X-Forwarded-*. */
function requestBase(req: Request, externalUrl: string): { base: string; query: URLSearchParams } {
  const search = req.originalUrl.split('?', 2)[1] ?? '';
  return { base: linkBase(externalUrl, req.baseUrl + req.path), query: new URLSearchParams(search) };
}

type PageResult = Page<Record<string, unknown>>;

function pageHeaders(
  req: Request,
  route: RouteDef,
  params: Record<string, unknown>,
  page: PageResult,
  externalUrl: string,
): Record<string, string> {
  const { base, query } = requestBase(req, externalUrl);
  // Keyset mode: no totals; rel="next" carries the next position (gitbeaker and python-gitlab follow it).
  if (page.pagination === PaginationMode.KEYSET) {
    const next = page.nextCursor
      ? route.keysetNext
        ? route.keysetNext(decodeCursor(page.nextCursor), params)
        : { cursor: page.nextCursor }
      : null;
    return keysetHeaders(page.perPage, next, base, query);
  }
  const { total, totalPages, hasNextPage } = page;
  return paginationHeaders(
    { total, page: page.page, perPage: page.perPage, totalPages, hasNextPage, hasRows: page.nodes.length > 0 },
    base,
    query,
  );
}

function chooseShape(route: RouteDef, params: Record<string, unknown>, ctx: RequestCtx): WireShape | undefined {
  return typeof route.shape === 'function' ? route.shape(params, ctx) : route.shape;
}

/** Maps an error from any stage to GitLab's status and body; unexpected ones are logged and become 500. */
function restErrorOf(err: unknown, deps: RestDeps, req: Request, res: Response): RestError {
  const domain = asDomainError(err);
  const where = {
    surface: 'rest' as const,
    reqId: req.id,
    route: res.locals.route as string | undefined,
    userId: req.userId,
  };
  if (deps.reporter) deps.reporter.report(err, where);
  else if (!domain) deps.logger.error({ err, reqId: req.id }, 'unhandled error in REST route');
  return domain ? toRestError(domain) : INTERNAL_ERROR;
}

async function handle(c: CompiledRoute, deps: RestDeps, req: Request, res: Response): Promise<void> {
  const { route } = c;
  const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<
    string,
    unknown
  >;
  // Authenticated before the body was read when the token came in a header or the query
  // (body-parsers.ts); again when the body carries `sudo`, which that early pass could not see.
  const early = res.locals.ctx as RequestCtx | undefined;
  const ctx = early && body.sudo === undefined ? early : await deps.createCtx(req);
  authorize(ctx, c.allow);
  // GitLab's conditional DELETE (core/db/delete-claim.ts): read by the services' claimForDelete.
  if (route.method === 'DELETE' && ctx.request)
    ctx.request.unmodifiedSince = parseUnmodifiedSince(req.get('if-unmodified-since'));
  if (route.filter) await route.filter(ctx, req.params as Record<string, string>);
  const { params, variables } = readParams(
    c.params,
    c.rules,
    req.query as Record<string, unknown>,
    body,
    req.params as Record<string, string>,
  );
  for (const name of c.requiredInputs) variables[name] ??= {};
  const shape = chooseShape(route, params, ctx);
  for (const p of shape ? includeVariables(shape) : []) variables[includeVariable(p)] = params[p] === true;
  const result = await c.runners.get(shape?.name ?? '')!(ctx, variables);
  if (result.errors?.length) {
    const err = result.errors[0];
    if (err.originalError) throw err.originalError;
    // Variable coercion failed: a parameter the GitLab coercers let through is still not acceptable.
    const variable = /^Variable "\$(\w+)"/.exec(err.message);
    if (variable) throw new ParamError(`${variable[1]} is invalid`);
    // Anything else (e.g. a null for a non-null field) is a server fault: 500, reported once.
    throw new Error(err.message);
  }
  const data = (result.data as Record<string, unknown>)[c.fieldName];
  let headers: Record<string, string> = {};
  let value: unknown = data;
  if (route.paginated) {
    const page = data as PageResult;
    headers = pageHeaders(req, route, params, page, deps.externalUrl);
    value = page.nodes;
  } else if (route.unwrap) {
    value = (data as Record<string, unknown>)[route.unwrap];
  }
  const status = typeof route.status === 'function' ? route.status(data as Record<string, unknown>) : c.status;
  if (route.scalar) {
    sendJson(
      res,
      status,
      route.scalar === 'status' ? status : route.scalar === 'accepted' ? { message: '202 Accepted' } : value,
    );
    return;
  }
  if (status === 204 || status === 304 || !shape) {
    res.status(status).end();
    return;
  }
  const text = Array.isArray(value)
    ? writeList(shape, value as Record<string, unknown>[])
    : writerOf(shape)(value as Record<string, unknown>);
  sendJsonText(res, status, text, headers);
}

/** A path's first segment, as express matches routes (case-insensitively): `/groups/1/members` → `groups`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The REST surface: every /api/v4 route from the declarative table, executed in process against the
 * shared GraphQL schema (no REST-only logic), plus GitLab's JSON 404 for anything else.
 *
 * Every route starts with a static segment (`/groups/...`, `/projects/...`), so the routes are split by
 * it and a request walks only its segment's routes, in the table's order: express tries each route in
 * turn, and a walk over the whole table cost each request a path match per route before its own.
 */
export function buildRestRouter(deps: RestDeps): Router {
  const bySegment = new Map<string, Router>();
  for (const c of deps.routes) {
    const segment = firstSegment(c.route.path);
    if (segment.startsWith(':')) throw new Error(`REST route ${c.route.path} must start with a static segment`);
    let router = bySegment.get(segment);
    if (!router) bySegment.set(segment, (router = express.Router({ strict: false })));
    const method = c.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    // Bodies are read per route, after header/query authentication; errors go to the app's bodyErrorHandler.
    router[method](
      c.route.path,
      ...routeBodyPipeline(c.route, deps.createCtx, { logger: deps.logger, allow: c.allow, afterBody: deps.afterBody }),
      (req: Request, res: Response) => {
        res.locals.route = `${c.route.method} ${c.route.path}`;
        handle(c, deps, req, res).catch((err: unknown) => sendError(res, restErrorOf(err, deps, req, res)));
      },
    );
  }
  const router = express.Router({ strict: false });
  router.use((req, res, next) => {
    const routes = bySegment.get(firstSegment(req.path));
    if (routes) routes(req, res, next);
    else next();
  });
  router.use((_req: Request, res: Response) => sendError(res, ROUTE_NOT_FOUND));
  return router;
}
