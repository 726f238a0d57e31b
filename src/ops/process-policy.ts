import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { currentRequest } from '../core/http/request-id';
import { redactSql, serializeError } from '../core/errors/redact-sql';

/**
 * What a serving process does with an error nothing caught (docs/operations.md#process-supervision-and-uncaught-errors):
 * - `unhandledRejection`: logged once at `error` with the request it came from, counted, and the
 *   process keeps serving. A rejection has already unwound to a promise boundary (no half-run
 *   synchronous code), so the process state is intact; what is lost is that promise's result, i.e. at
 *   worst one request that never gets its answer. Exiting would hand any caller able to trigger one a
 *   way to stop the service, and restart a worker per request.
 * - `uncaughtException`: logged once at `fatal` with the request, then the process stops: a throw that
 *   unwound synchronous code may leave any structure (pool, cache, parser) half-updated, and Node
 *   documents that resuming is unsafe. `stop` closes the listener, lets in-flight requests finish
 *   within a short grace and exits 1; under the supervisor a replacement is forked at once. A second
 *   uncaught exception while stopping exits at once.
 */
export const processErrorsTotal = new Counter({
  name: 'process_errors_total',
  help: 'Errors no code caught, by kind (unhandled_rejection: logged, process kept; uncaught_exception: process replaced)',
  labelNames: ['kind'] as const,
  registers: [],
});

/** Longest wait for in-flight requests after an uncaught exception (capped by SHUTDOWN_TIMEOUT_MS). */
export const CRASH_GRACE_MS = 5000;

export interface ProcessPolicyOptions {
  logger: Logger;
  /** Stop accepting, let in-flight requests finish, exit 1 (main.ts's shutdown). */
  stop: (reason: string) => void;
  /** Exit anyway after this long if `stop` hangs (default CRASH_GRACE_MS + 5 s). */
  hardExitMs?: number;
  /** The process to watch, and how to exit (tests pass an emitter and a spy; then process.exitCode is left alone). */
  target?: NodeJS.EventEmitter;
  exit?: (code: number) => void;
}

/** The reason as a log field: errors serialized (SQL redacted, stack kept), anything else as short redacted text. */
function errField(reason: unknown): unknown {
  if (reason instanceof Error) return serializeError(reason);
  return { type: typeof reason, message: redactSql(String(reason)).slice(0, 1000) };
}

export function installProcessPolicy(opts: ProcessPolicyOptions): void {
  const { logger } = opts;
  const target = opts.target ?? process;
  const real = target === process;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  target.on('unhandledRejection', (reason: unknown) => {
    processErrorsTotal.inc({ kind: 'unhandled_rejection' });
    logger.error(
      { ...currentRequest(), err: errField(reason) },
      'unhandled promise rejection; the process keeps serving',
    );
  });
  target.on('uncaughtException', (err: unknown, origin: string) => {
    processErrorsTotal.inc({ kind: 'uncaught_exception' });
    if (stopping) {
      logger.fatal(
        { ...currentRequest(), err: errField(err), origin },
        'uncaught exception while stopping; exiting now',
      );
      return exit(1);
    }
    stopping = true;
    // Whatever ends the process from here (stop's own exit, the timer, an empty event loop) ends it with 1.
    if (real) process.exitCode = 1;
    logger.fatal(
      { ...currentRequest(), err: errField(err), origin },
      'uncaught exception; this process stops accepting requests, finishes in-flight ones and exits 1',
    );
    setTimeout(() => exit(1), opts.hardExitMs ?? CRASH_GRACE_MS + 5000).unref();
    opts.stop('uncaught exception');
  });
}
