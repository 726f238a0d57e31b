import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';

/** A client's X-Request-Id is kept only when it is a short token of safe characters (no log or header injection). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SAFE_ID.test(header) ? header : crypto.randomUUID();
}

/** What the process-level error policy (ops/process-policy.ts) logs about the request an error came from. */
export interface RequestContext {
  reqId: string;
  method: string;
  /** Without the query string (it may carry private_token). */
  path: string;
}

interface Entry {
  reqId: string;
  method: string;
  /** req.url as it arrived (routers rewrite req.url later); the path is cut out only when read. */
  url: string;
}

const storage = new AsyncLocalStorage<Entry>();

/** Runs the rest of the request's middleware chain (`next`) inside its context; every continuation inherits it. */
export function withRequestContext(req: { id: string; method: string; url: string }, next: () => void): void {
  storage.run({ reqId: req.id, method: req.method, url: req.url }, next);
}

/** The context of the request whose code is running (also inside a rejected promise's or a callback's continuation). */
export function currentRequest(): RequestContext | undefined {
  const entry = storage.getStore();
  if (!entry) return undefined;
  const q = entry.url.indexOf('?');
  return { reqId: entry.reqId, method: entry.method, path: q < 0 ? entry.url : entry.url.slice(0, q) };
}
