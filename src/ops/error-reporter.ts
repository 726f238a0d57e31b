import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { DomainError } from '../core/errors/domain-errors';
import { asDomainError, isConcurrencyFailure, isDatabaseUnavailable } from '../core/errors/driver-errors';
import { serializeError } from '../core/errors/redact-sql';

export interface ErrorWhere {
  surface: 'rest' | 'graphql' | 'http';
  reqId?: string;
  /** REST route template (`GET /groups/:id`) or GraphQL `query users`. */
  route?: string;
  userId?: number | null;
}

export interface ErrorReporter {
  /** Logs one unexpected error once (redacted) and counts database errors; DomainErrors are ignored. */
  report(err: unknown, where: ErrorWhere): void;
}

/** MikroORM's DriverException subclasses and raw pg errors (a five-character SQLSTATE). */
function isDriverError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown; sqlState?: unknown }).sqlState ?? (err as { code?: unknown }).code;
  return err.name.endsWith('Exception') || (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
}

export function createErrorReporter(logger: Logger, dbErrors: Counter<'kind'>): ErrorReporter {
  return {
    report(err, where) {
      if (err instanceof DomainError && err.code !== 'UNAVAILABLE') return;
      const fields = { ...where, err: serializeError(err) };
      if (err instanceof DomainError) {
        // Answered at once because the health probe fails: counted; the probe logs the outage once.
        dbErrors.inc({ kind: 'unavailable' });
        logger.debug(fields, 'database unavailable');
        return;
      }
      if (isConcurrencyFailure(err)) {
        // PostgreSQL aborted the transaction for a concurrent one (core/errors/driver-errors.ts): answered 409.
        dbErrors.inc({ kind: 'conflict' });
        logger.warn(fields, 'deadlock or serialization failure answered 409');
        return;
      }
      const race = asDomainError(err)?.code;
      if (race === 'NOT_FOUND' || race === 'CONFLICT') {
        // A write that raced the delete of what it refers to (core/errors/driver-errors.ts): answered 404/409.
        // A warning with the constraint (in err): a wrong reference written by a bug looks the same.
        logger.warn(fields, 'foreign key violation answered as a race with a delete');
        return;
      }
      if (isDatabaseUnavailable(err)) {
        dbErrors.inc({ kind: 'unavailable' });
        logger.warn(fields, 'database unavailable');
        return;
      }
      if (isDriverError(err)) dbErrors.inc({ kind: 'query' });
      logger.error(fields, 'unexpected error');
    },
  };
}
