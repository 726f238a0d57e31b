import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import type { Logger } from 'pino';
import { authorize, type AllowRule } from '../core/auth/allow';
import { extractToken } from '../core/auth/token';
import type { RequestCtx } from '../core/context/request-ctx';
import { UnauthenticatedError } from '../core/errors/domain-errors';
import { asDomainError } from '../core/errors/driver-errors';
import { toRestError } from '../core/errors/rest-error';
import { isClientAbort, sendJsonError } from '../core/http/body-error-handler';
import { UploadedFile } from '../core/http/uploaded-file';
import type { RouteDef } from './route';

/** JSON, form and multipart field bodies (docs/security.md#request-bodies). */
export const BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Each declared file parameter (a PEM certificate or key is a few kB). */
export const FILE_LIMIT_BYTES = 1024 * 1024;
export const MULTIPART_MAX_FIELDS = 1000;

const sendError = sendJsonError;

/**
 * Authenticates from the PRIVATE-TOKEN / Authorization header or the query string before any body is
 * read: a bad token is 401 at once. The context is kept for the route; without such a token the route
 * authenticates after the body is parsed (a form body may carry `private_token`).
 */
function authenticateFirst(createCtx: (req: Request) => Promise<RequestCtx>): RequestHandler {
  return (req, res, next) => {
    const query = req.query as Record<string, unknown>;
    if (extractToken({ header: (n) => req.get(n), param: (n) => query[n] }) === undefined) return next();
    createCtx(req).then((ctx) => {
      if (ctx.tokenInvalid) {
        const err = toRestError(new UnauthenticatedError());
        return sendError(res, err.status, err.body);
      }
      res.locals.ctx = ctx;
      next();
    }, next);
  };
}

/**
 * Multipart is read only with a Content-Length within the route's total (fields plus its declared
 * files), and file routes only for a caller already authenticated by header or query token.
 */
function multipartGate(route: RouteDef): RequestHandler {
  const files = route.files ?? [];
  const total = BODY_LIMIT_BYTES + files.length * FILE_LIMIT_BYTES;
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const length = req.get('content-length');
    if (length === undefined) return sendError(res, 411, { error: 'A multipart body needs a Content-Length header' });
    if (Number(length) > total)
      return sendError(res, 413, { error: `The multipart body is larger than ${total} bytes` });
    if (files.length > 0 && !(res.locals.ctx as RequestCtx | undefined)?.user) {
      const err = toRestError(new UnauthenticatedError());
      return sendError(res, err.status, err.body);
    }
    next();
  };
}

/**
 * The route's `gate` (route.ts), before any body is read, for a caller authenticated by header or
 * query token: the field's permission metadata first (GitLab's order: 401/403 before a route filter),
 * then the gate. A refusal closes the connection after the answer, so the body is never read.
 */
function routeGate(route: RouteDef, allow: AllowRule | undefined): RequestHandler {
  const gate = route.gate;
  return (req, res, next) => {
    const ctx = res.locals.ctx as RequestCtx | undefined;
    if (!gate || !ctx) return next();
    Promise.resolve()
      .then(() => {
        if (allow) authorize(ctx, allow);
        return gate(ctx, req.params as Record<string, string>);
      })
      .then(
        () => next(),
        (err: unknown) => {
          const domain = asDomainError(err);
          if (!domain) return next(err);
          const mapped = toRestError(domain);
          res.setHeader('Connection', 'close');
          sendError(res, mapped.status, mapped.body);
        },
      );
  };
}

/**
 * Declared file parts arrive as UploadedFile values under their names; the parameter coercers read a
 * text parameter's file as its text (a PEM certificate) and hand a `file` parameter (an avatar) its bytes.
 */
function filesToFields(req: Request, _res: Response, next: NextFunction): void {
  const files = (req as Request & { files?: Express.Multer.File[] }).files;
  if (Array.isArray(files))
    for (const f of files)
      (req.body as Record<string, unknown>)[f.fieldname] = new UploadedFile(f.originalname, f.mimetype, f.buffer);
  next();
}

/**
 * Which file parts are kept: a declared name once (a second part of that name is refused, 400); any
 * other file part is ignored as GitLab ignores undeclared parameters, its bytes drained by multer
 * (`fileStream.resume()`) without being buffered. The route's Content-Length total and the part count
 * still bound what such parts may cost.
 */
function keepDeclaredFiles(
  declared: readonly string[],
): (req: Request, file: Express.Multer.File, cb: multer.FileFilterCallback) => void {
  const names = new Set(declared);
  const seen = new WeakMap<Request, Set<string>>();
  return (req, file, cb) => {
    if (!names.has(file.fieldname)) return cb(null, false);
    const got = seen.get(req) ?? new Set<string>();
    seen.set(req, got);
    if (got.has(file.fieldname)) return cb(new multer.MulterError('LIMIT_UNEXPECTED_FILE', file.fieldname));
    got.add(file.fieldname);
    cb(null, true);
  };
}

/**
 * The multipart parser, where a client that aborts its upload is not a server error: anyone can
 * abort uploads, so it is one warning without a stack (not an error line with one), and no answer
 * (the connection is gone).
 */
function multipartOf(parse: RequestHandler, route: RouteDef, logger: Logger | undefined): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!(err instanceof Error) || !isClientAbort(req, err)) return next(err);
      logger?.warn(
        { reqId: req.id, route: `${route.method} ${route.path}`, reason: err.message },
        'client aborted the request body',
      );
      res.destroy();
    });
}

const jsonBody = express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] });
const formBody = express.urlencoded({ extended: true, limit: BODY_LIMIT_BYTES, parameterLimit: 10000 });

export interface BodyPipelineOptions {
  /** Client aborts are logged here (warn). */
  logger?: Logger;
  /** The root field's permission metadata, checked before the route's `gate`. */
  allow?: AllowRule;
  /** Run after the body is read (or found absent), before the route's operation. */
  afterBody?: RequestHandler;
}

/** The middleware chain in front of one route: authenticate, the route's gate, then read the body this route accepts. */
export function routeBodyPipeline(
  route: RouteDef,
  createCtx: (req: Request) => Promise<RequestCtx>,
  opts: BodyPipelineOptions = {},
): RequestHandler[] {
  const files = route.files ?? [];
  const upload = multer({
    // Undeclared file parts are skipped by the filter, so no `files` count: `parts` bounds them all.
    limits: {
      fields: MULTIPART_MAX_FIELDS,
      fieldSize: BODY_LIMIT_BYTES,
      fieldNameSize: 200,
      fileSize: FILE_LIMIT_BYTES,
      parts: MULTIPART_MAX_FIELDS + files.length,
    },
    fileFilter: keepDeclaredFiles(files),
  });
  const multipart = upload.any();
  const readBody = inSequence([
    multipartGate(route),
    jsonBody,
    formBody,
    multipartOf(multipart, route, opts.logger),
    filesToFields,
  ]);
  // Without a body (no Content-Length, no Transfer-Encoding: most GETs) every reader would pass it on.
  const body: RequestHandler = (req, res, next) => (hasBody(req) ? readBody(req, res, next) : next());
  return [
    authenticateFirst(createCtx),
    routeGate(route, opts.allow),
    body,
    ...(opts.afterBody ? [opts.afterBody] : []),
  ];
}

/** Whether a request carries a body: the rule body-parser and multer apply (type-is `hasBody`); a `Content-Length: 0` counts. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length']));
}

/** Middleware run one after another as one: the first error goes to `next` (readers only call `next()` or `next(err)`). */
function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
