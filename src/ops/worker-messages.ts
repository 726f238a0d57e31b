import cluster from 'node:cluster';

/**
 * What a worker tells the supervisor over the cluster IPC channel. None of these is sent per ordinary
 * request: a worker speaks when it wants the listening socket, listens, starts draining, or has
 * requests in flight that are large, slow or running while its heap is nearly full (ops/in-flight-requests.ts).
 */
const PREFIX = 'gitlab-admin:';
export const SOCKET = `${PREFIX}socket`;
export const LISTENING = `${PREFIX}listening`;
export const DRAINING = `${PREFIX}draining`;
export const REQUESTS = `${PREFIX}requests`;
export const REQUEST_DONE = `${PREFIX}request-done`;

/** Why a worker reported a request before it finished. */
export type ReportReason = 'large' | 'slow' | 'heap';

/** A request as the supervisor logs it when the worker dies: no query string, no header, no token. */
export interface RequestRecord {
  /** The worker's number for this report (updates and the done notice refer to it). */
  ref: number;
  reqId?: string;
  method?: string;
  /** The path without its query string (which may carry private_token). */
  path: string;
  /** REST route template or `graphql query users`-style label, once the app knows it. */
  route?: string;
  /** The authenticated user's id, null for an anonymous request; absent while not yet authenticated. */
  userId?: number | null;
  /** True when credentials were presented but not yet checked (userId unknown). */
  token?: boolean;
  ip?: string;
  /** Content-Length; null for a body of unknown length (chunked). */
  bytes: number | null;
  /** Epoch milliseconds. */
  startedAt: number;
  why: ReportReason;
}

/** Records as log lines show them: their age at `at` instead of the start time, without the worker's ref. */
export function describeInFlight(records: Iterable<RequestRecord>, at: number) {
  return [...records].map(({ ref: _ref, startedAt, ...request }) => ({ ...request, ageMs: at - startedAt }));
}

export interface HeapNote {
  usedMb: number;
  limitMb: number;
}

export type WorkerMessage =
  | { supervisor: typeof SOCKET }
  | { supervisor: typeof LISTENING }
  | { supervisor: typeof DRAINING }
  | { supervisor: typeof REQUESTS; requests: RequestRecord[]; heap?: HeapNote }
  | { supervisor: typeof REQUEST_DONE; ref: number };

const KINDS = new Set<string>([SOCKET, LISTENING, DRAINING, REQUESTS, REQUEST_DONE]);

export function isWorkerMessage(m: unknown): m is WorkerMessage {
  const kind = (m as { supervisor?: unknown } | null)?.supervisor;
  return typeof kind === 'string' && KINDS.has(kind);
}

/** Worker side: a message to the supervisor (nothing outside a cluster worker, or once the channel closed). */
export function sendToSupervisor(message: WorkerMessage): void {
  if (cluster.isWorker && process.connected && process.send) process.send(message);
}

/** Worker side: this process accepts connections (sent once its signal handlers are in place). */
export function announceListening(): void {
  sendToSupervisor({ supervisor: LISTENING });
}

/** Worker side: this process stops accepting and will exit; the supervisor forks its replacement now. */
export function announceDraining(): void {
  sendToSupervisor({ supervisor: DRAINING });
}
