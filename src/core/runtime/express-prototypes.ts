import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * Runtime patch of node's HTTP server for express (one of core/runtime's; docs/runtime-patches.md).
 *
 * Options for `http.createServer` that make node build each request and response with express's
 * prototypes already in place (`app.request`, `app.response`).
 *
 * Why: express's `app.handle` gives every request and response its own prototypes with
 * `Object.setPrototypeOf` (express 5, lib/application.js). V8 then keeps both objects, and everything
 * reachable from them (the request context, its loaders, the rows read), alive through the next
 * young-generation collection, so every request's data is promoted to the old generation and only a
 * full mark-compact frees it (what it costs: docs/runtime-patches.md#measured).
 *
 * With the prototypes already set, express's `Object.setPrototypeOf(req, app.request)` changes
 * nothing (the same prototype), and every express API (req.query, req.ip, res.status, ...) reads
 * them as before. Node's constructors run on the new object with `.call`, as node's own subclasses
 * of them do: `Reflect.construct` with a new target was measured too and keeps the objects alive
 * just the same (V8 derives a fresh map for each). Should a node version make them classes (which
 * cannot be called), the server keeps node's defaults and express sets the prototypes as before.
 */
const isClass = (f: Function) => /^class\b/.test(Function.prototype.toString.call(f));

/** The contract the patch relies on: node's request and response constructors can be called on a new object. */
export function expressPrototypesContract(): string | undefined {
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse))
    return 'http.IncomingMessage or http.ServerResponse became a class';
  return undefined;
}

export function expressServerOptions(app: Express): http.ServerOptions {
  const { request, response } = app as unknown as { request: object; response: object };
  if (expressPrototypesContract()) return {};
  const IncomingMessage = http.IncomingMessage as unknown as (this: object, socket: Socket) => void;
  const ServerResponse = http.ServerResponse as unknown as (
    this: object,
    req: http.IncomingMessage,
    options?: object,
  ) => void;
  function ExpressRequest(this: object, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = request;
  function ExpressResponse(this: object, req: http.IncomingMessage, options?: object): void {
    ServerResponse.call(this, req, options);
  }
  ExpressResponse.prototype = response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
  };
}

/** An HTTP server for an express app, with its request and response prototypes in place (above) unless `patched` is false. */
export function createAppServer(app: Express, listener: http.RequestListener = app, patched = true): http.Server {
  return http.createServer(patched ? expressServerOptions(app) : {}, listener);
}
