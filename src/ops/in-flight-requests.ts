import type { IncomingHttpHeaders } from 'node:http';
import v8 from 'node:v8';
import type { Logger } from 'pino';
import { extractToken } from '../core/auth/token';
import {
  describeInFlight,
  REQUEST_DONE,
  REQUESTS,
  type HeapNote,
  type ReportReason,
  type RequestRecord,
  type WorkerMessage,
} from './worker-messages';

/**
 * A worker's requests in flight, told to the supervisor before they can kill it
 * (docs/operations.md#a-crash-is-not-an-outage). A worker that exhausts its heap dies in V8's fatal error handler, and a SIGKILL
 * gives no warning either: no JavaScript runs at death, so whatever the supervisor should log about
 * the request that killed the worker must already be in the supervisor. Every request costs an array
 * slot and one `close` listener; only these are sent over IPC, once each, plus a done notice:
 * - large: a body from LARGE_REQUEST_BYTES on, or of unknown length, when the request starts, because
 *   parsing it (JSON, GraphQL) is synchronous work during which nothing else in this process runs;
 *   updated when its body has been read, by which time a REST request is authenticated;
 * - slow: a request still running after SLOW_REQUEST_MS, at the next check;
 * - heap: every request in flight while V8's heap use is above HEAP_HIGH_WATER of its limit (also
 *   the new reason of one reported before).
 * The check runs every CHECK_INTERVAL_MS while requests are in flight; it also sends the user and
 * route of a reported request once the app knows them. Synchronous work that fills the heap from a
 * small body, started before the request turned slow, is not caught: nothing can run before the abort.
 */
export const LARGE_REQUEST_BYTES = 64 * 1024;
export const SLOW_REQUEST_MS = 1000;
export const HEAP_HIGH_WATER = 0.6;
/** Below this share the high-water warning is armed again. */
const HEAP_LOW_WATER = 0.5;
export const CHECK_INTERVAL_MS = 250;
const MAX_PATH = 256;
const MB = 1024 * 1024;

/** What the watch reads of a request: node's request with what express and app.ts add (read only when reporting). */
export interface WatchedRequest {
  method?: string;
  url?: string;
  originalUrl?: string;
  headers: IncomingHttpHeaders;
  id?: string;
  userId?: number | null;
  ip?: string;
  query?: unknown;
  once(event: 'end', listener: () => void): unknown;
}

export interface WatchedResponse {
  req: WatchedRequest;
  locals?: Record<string, unknown>;
  on(event: 'close', listener: (this: WatchedResponse) => void): unknown;
}

export interface RequestWatchOptions {
  logger: Logger;
  /** IPC to the supervisor (ops/worker-messages.ts); tests pass a spy. */
  send: (message: WorkerMessage) => void;
  /** V8's heap use and limit in bytes (default v8.getHeapStatistics). */
  heap?: () => { used: number; limit: number };
  now?: () => number;
  /** 0: no timer (tests call check themselves). */
  intervalMs?: number;
}

export interface RequestWatch {
  /** Called once per request, after the app has seen it (request id set). */
  track(req: WatchedRequest, res: WatchedResponse): void;
  check(): void;
  stop(): void;
}

interface Sent {
  ref: number;
  why: ReportReason;
  seen: string;
}

const v8Heap = () => {
  const s = v8.getHeapStatistics();
  return { used: s.used_heap_size, limit: s.heap_size_limit };
};

function bodyBytes(headers: IncomingHttpHeaders): number | null {
  const length = headers['content-length'];
  return length === undefined ? (headers['transfer-encoding'] === undefined ? 0 : null) : Number(length);
}

const isLarge = (headers: IncomingHttpHeaders) => {
  const bytes = bodyBytes(headers);
  return bytes === null || bytes >= LARGE_REQUEST_BYTES;
};

/** What the app has learnt about the request since it was reported (user, route). */
const seenOf = (res: WatchedResponse) => `${String(res.req.userId)}|${String(res.locals?.route)}`;

function hasToken(req: WatchedRequest): boolean {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return extractToken({ header, param: (name) => query[name] }) !== undefined;
}

const SLOT = Symbol('in-flight slot');
const STARTED = Symbol('in-flight since');
type Slotted = WatchedResponse & { [SLOT]?: number; [STARTED]?: number };

/**
 * The responses in flight, each in a slot of an array that it knows, with its start time: adding and
 * removing are two property writes. A Map keyed by the responses cost a REST group list about a fifth of
 * its CPU in a worker (docs/benchmarks.md): each request's insert and delete churn the Map's hash table.
 */
class InFlight {
  private readonly slots: (Slotted | undefined)[] = [];
  private readonly free: number[] = [];
  size = 0;

  add(res: Slotted, at: number): void {
    const slot = this.free.pop() ?? this.slots.length;
    this.slots[slot] = res;
    res[SLOT] = slot;
    res[STARTED] = at;
    this.size += 1;
  }

  delete(res: Slotted): void {
    const slot = res[SLOT];
    if (slot === undefined || this.slots[slot] !== res) return;
    this.slots[slot] = undefined;
    res[SLOT] = undefined;
    this.free.push(slot);
    this.size -= 1;
  }

  has(res: Slotted): boolean {
    const slot = res[SLOT];
    return slot !== undefined && this.slots[slot] === res;
  }

  startedAt(res: Slotted): number | undefined {
    return this.has(res) ? res[STARTED] : undefined;
  }

  all(): Slotted[] {
    return this.slots.filter((res): res is Slotted => res !== undefined);
  }
}

export function watchRequests(opts: RequestWatchOptions): RequestWatch {
  const heap = opts.heap ?? v8Heap;
  const now = opts.now ?? Date.now;
  const inFlight = new InFlight();
  const reported = new Map<WatchedResponse, Sent>();
  let refs = 0;
  let warned = false;

  const record = (res: WatchedResponse, sent: Sent): RequestRecord => {
    const { req } = res;
    const url = req.originalUrl ?? req.url ?? '';
    const q = url.indexOf('?');
    const route = res.locals?.route;
    return {
      ref: sent.ref,
      reqId: req.id,
      method: req.method,
      path: (q < 0 ? url : url.slice(0, q)).slice(0, MAX_PATH),
      ...(typeof route === 'string' ? { route } : {}),
      ...(req.userId !== undefined ? { userId: req.userId } : hasToken(req) ? { token: true } : {}),
      ip: req.ip,
      bytes: bodyBytes(req.headers),
      startedAt: inFlight.startedAt(res) ?? now(),
      why: sent.why,
    };
  };

  const report = (res: WatchedResponse, why: ReportReason): RequestRecord => {
    const sent = { ref: (refs += 1), why, seen: seenOf(res) };
    reported.set(res, sent);
    return record(res, sent);
  };

  /** What the app learnt about a reported request since it was sent (user, route), or its new reason. */
  const refresh = (res: WatchedResponse, why?: ReportReason): RequestRecord | undefined => {
    const sent = reported.get(res);
    const seen = seenOf(res);
    if (!sent || (sent.seen === seen && (why === undefined || why === sent.why))) return undefined;
    sent.seen = seen;
    sent.why = why ?? sent.why;
    return record(res, sent);
  };

  function untrack(this: WatchedResponse): void {
    inFlight.delete(this);
    if (reported.size === 0) return;
    const sent = reported.get(this);
    if (!sent) return;
    reported.delete(this);
    opts.send({ supervisor: REQUEST_DONE, ref: sent.ref });
  }

  const track = (req: WatchedRequest, res: WatchedResponse): void => {
    inFlight.add(res, now());
    res.on('close', untrack);
    if (!isLarge(req.headers)) return;
    opts.send({ supervisor: REQUESTS, requests: [report(res, 'large')] });
    req.once('end', () => {
      const update = inFlight.has(res) ? refresh(res) : undefined;
      if (update) opts.send({ supervisor: REQUESTS, requests: [update] });
    });
  };

  const check = (): void => {
    if (inFlight.size === 0) return;
    const { used, limit } = heap();
    const high = used >= HEAP_HIGH_WATER * limit;
    if (used < HEAP_LOW_WATER * limit) warned = false;
    const at = now();
    const records: RequestRecord[] = [];
    for (const res of inFlight.all()) {
      const startedAt = inFlight.startedAt(res)!;
      const why = high ? 'heap' : at - startedAt >= SLOW_REQUEST_MS ? 'slow' : undefined;
      // A reported request keeps its reason unless it is now running on a nearly full heap.
      const update = reported.has(res) ? refresh(res, high ? why : undefined) : why ? report(res, why) : undefined;
      if (update) records.push(update);
    }
    const note: HeapNote = { usedMb: Math.round(used / MB), limitMb: Math.round(limit / MB) };
    const crossed = high && !warned;
    if (records.length > 0 || crossed)
      opts.send({ supervisor: REQUESTS, requests: records, ...(high ? { heap: note } : {}) });
    if (crossed) {
      warned = true;
      const all = inFlight.all().map((res) => record(res, reported.get(res)!));
      opts.logger.warn(
        { heap: note, inFlight: describeInFlight(all, at) },
        `heap above ${HEAP_HIGH_WATER * 100} % of its limit; the requests in flight were reported to the supervisor`,
      );
    }
  };

  const timer = opts.intervalMs === 0 ? undefined : setInterval(check, opts.intervalMs ?? CHECK_INTERVAL_MS);
  timer?.unref();
  return { track, check, stop: () => clearInterval(timer) };
}
