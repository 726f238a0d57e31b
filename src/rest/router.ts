import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import multer from 'multer';
import { execute, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { RequestCtx } from '../core/context/request-ctx';
import { authorize } from '../core/auth/allow';
import { DomainError, ParamError } from '../core/errors/domain-errors';
import { INTERNAL_ERROR, ROUTE_NOT_FOUND, toRestError, type RestError } from '../core/errors/rest-error';
import { paginationHeaders } from '../core/pagination/headers';
import type { Page } from '../core/pagination/page';
import { includeVariables, includeVariable, present, type WireShape } from '../core/wire/wire';
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
}

/** python-gitlab 3.x decodes only responses whose Content-Type is exactly `application/json`. */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.status(status);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function sendError(res: Response, err: RestError): void {
  sendJson(res, err.status, err.body);
}

function requestBase(req: Request): { base: string; query: URLSearchParams } {
  const [path, search = ''] = req.originalUrl.split('?', 2);
  return { base: `${req.protocol}://${req.get('host')}${path}`, query: new URLSearchParams(search) };
}

type PageResult = Page<Record<string, unknown>>;

function pageHeaders(req: Request, page: PageResult): Record<string, string> {
  const { base, query } = requestBase(req);
  if (page.total === null) {
    // Keyset mode: no totals; rel="next" carries the cursor (gitbeaker follows it).
    const headers: Record<string, string> = { 'X-Per-Page': String(page.perPage) };
    if (page.nextCursor) {
      query.set('cursor', page.nextCursor);
      query.set('per_page', String(page.perPage));
      headers.Link = `<${base}?${query.toString()}>; rel="next"`;
    }
    return headers;
  }
  return paginationHeaders({ total: page.total, page: page.page, perPage: page.perPage, totalPages: page.totalPages ?? 1 }, base, query);
}

function chooseShape(route: RouteDef, params: Record<string, unknown>, ctx: RequestCtx): WireShape | undefined {
  return typeof route.shape === 'function' ? route.shape(params, ctx) : route.shape;
}

/** Maps an error from any stage to GitLab's status and body; unexpected ones are logged and become 500. */
function restErrorOf(err: unknown, logger: Logger, req: Request): RestError {
  if (err instanceof DomainError) return toRestError(err);
  logger.error({ err, reqId: req.id }, 'unhandled error in REST route');
  return INTERNAL_ERROR;
}

async function handle(c: CompiledRoute, deps: RestDeps, req: Request, res: Response): Promise<void> {
  const { route } = c;
  const ctx = await deps.createCtx(req);
  authorize(ctx, c.allow);
  const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
  const { params, variables } = readParams(c.params, route.rules ?? [], req.query as Record<string, unknown>, body, req.params as Record<string, string>);
  for (const name of c.requiredInputs) variables[name] ??= {};
  const shape = chooseShape(route, params, ctx);
  for (const p of shape ? includeVariables(shape) : []) variables[includeVariable(p)] = params[p] === true;
  const document = c.documents.get(shape?.name ?? '')!;
  const result = await execute({ schema: deps.schema, document, variableValues: variables, contextValue: ctx });
  if (result.errors?.length) {
    const err = result.errors[0];
    if (err.originalError) throw err.originalError;
    // Variable coercion failed: a parameter the GitLab coercers let through is still not acceptable.
    throw new ParamError(err.message.replace(/^Variable "\$(\w+)".*$/s, '$1 is invalid'));
  }
  const data = (result.data as Record<string, unknown>)[c.fieldName];
  let headers: Record<string, string> = {};
  let value: unknown = data;
  if (route.paginated) {
    const page = data as PageResult;
    headers = pageHeaders(req, page);
    value = page.nodes;
  } else if (route.unwrap) {
    value = (data as Record<string, unknown>)[route.unwrap];
  }
  const status = typeof route.status === 'function' ? route.status(data as Record<string, unknown>) : c.status;
  if (status === 204 || status === 304 || !shape) {
    res.status(status).end();
    return;
  }
  const presented = Array.isArray(value)
    ? value.map((v) => present(shape, v as Record<string, unknown>))
    : present(shape, value as Record<string, unknown>);
  sendJson(res, status, presented, headers);
}

const upload = multer({ limits: { fileSize: 10 * 1024 * 1024, fields: 2000 } });

/** Multipart file fields (e.g. a PEM certificate) arrive as their text, like form fields. */
function filesToFields(req: Request, _res: Response, next: NextFunction): void {
  const files = (req as Request & { files?: Express.Multer.File[] }).files;
  if (Array.isArray(files)) for (const f of files) (req.body as Record<string, unknown>)[f.fieldname] = f.buffer.toString('utf8');
  next();
}

/**
 * The REST surface: every /api/v4 route from the declarative table, executed in process against the
 * shared GraphQL schema (no REST-only logic), plus GitLab's JSON 404 for anything else.
 */
export function buildRestRouter(deps: RestDeps): Router {
  const router = express.Router({ strict: false });
  router.use(express.json({ limit: '10mb', type: ['application/json', 'application/*+json'] }));
  router.use(express.urlencoded({ extended: true, limit: '10mb', parameterLimit: 10000 }));
  router.use(upload.any(), filesToFields);
  for (const c of deps.routes) {
    const method = c.route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](c.route.path, (req: Request, res: Response) => {
      res.locals.route = `${c.route.method} ${c.route.path}`;
      handle(c, deps, req, res).catch((err: unknown) => sendError(res, restErrorOf(err, deps.logger, req)));
    });
  }
  router.use((_req: Request, res: Response) => sendError(res, ROUTE_NOT_FOUND));
  // Body parser failures (malformed JSON, too large) are client errors with a JSON body.
  router.use((err: Error & { status?: number; type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (err.type === 'entity.parse.failed') return sendJson(res, 400, { error: 'The request body is not valid JSON' });
    if (err.status && err.status >= 400 && err.status < 500) return sendJson(res, err.status, { error: err.message });
    if (err instanceof multer.MulterError) return sendJson(res, 400, { error: err.message });
    return sendError(res, restErrorOf(err, deps.logger, req));
  });
  return router;
}
