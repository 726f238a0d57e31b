import { ConflictError, DatabaseUnavailableError, DomainError, NotFoundError } from './domain-errors';

// Node socket errors and PostgreSQL SQLSTATEs that mean "the database is not reachable right now":
// class 08 (connection exception), 57P01-57P03 (shutdown, crash shutdown, cannot connect now),
// 57014 (statement_timeout), 53300 (too many connections). https://www.postgresql.org/docs/current/errcodes-appendix.html
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_STREAM_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
]);
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Query read timeout/,
  /Timeout acquiring a connection/,
  /timeout exceeded when trying to connect/i,
  /^timeout expired$/,
  /ended by the other party/,
  /not queryable/,
  /Client was closed/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let cur = err;
  while (cur && typeof cur === 'object' && chain.length < 5) {
    chain.push(cur);
    const next = (cur as { cause?: unknown; previous?: unknown }).previous ?? (cur as { cause?: unknown }).cause;
    if (next === cur) break;
    cur = next;
  }
  return chain;
}

/** True for errors that say the database is unreachable, stopped, restarting or out of time. */
export function isDatabaseUnavailable(err: unknown): boolean {
  return causes(err).some((e) => {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (name === 'ConnectionException' || name === 'KnexTimeoutError') return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message));
  });
}

/** The resource GitLab names in its 404 for a row of a referenced table (`404 Project Not Found`). */
const RESOURCE_OF_TABLE: Record<string, string> = {
  projects: 'Project',
  namespaces: 'Namespace',
  users: 'User',
  ci_runners: 'Runner',
  environments: 'Environment',
  ci_builds: 'Job',
  pages_domains: 'PagesDomain',
  broadcast_messages: 'BroadcastMessage',
  system_hooks: 'Hook',
};

/**
 * A foreign-key violation (SQLSTATE 23503) is a race with a delete: the row a write refers to (the
 * group a project is created in, the project an environment is added to) was deleted after the
 * service found it and before the write committed. Answered as the lookup would answer a moment
 * later: 404 for the referenced resource. The reverse (a delete finding a row still referenced,
 * which the schema's cascades leave only to a concurrent insert) is a 409.
 */
function foreignKeyRace(err: unknown): DomainError | undefined {
  for (const e of causes(err)) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (code !== '23503') continue;
    const text = typeof detail === 'string' ? detail : '';
    const missing = /is not present in table "([^"]+)"/.exec(text);
    if (missing) {
      const resource = RESOURCE_OF_TABLE[missing[1]];
      return resource ? new NotFoundError(resource) : new NotFoundError();
    }
    return new ConflictError('409 Conflict: the resource is still referenced by one created at the same time; retry');
  }
  return undefined;
}

// 40P01 deadlock_detected, 40001 serialization_failure: PostgreSQL aborted this transaction for a
// concurrent one. https://www.postgresql.org/docs/current/errcodes-appendix.html
const CONCURRENCY_CODES = new Set(['40P01', '40001']);

/**
 * True when PostgreSQL aborted the transaction because of a concurrent one (a deadlock or a
 * serialization failure). Nothing of it was written; the same request sent again can succeed.
 */
export function isConcurrencyFailure(err: unknown): boolean {
  return causes(err).some((e) => {
    const { code, sqlState } = e as { code?: unknown; sqlState?: unknown };
    return CONCURRENCY_CODES.has(String(sqlState ?? code));
  });
}

/**
 * Answered 409, as a conflict with a concurrent change: the request was sound and may be sent again,
 * a 5xx would say the service failed. Not retried inside the service: a transaction's callback may
 * change entities created outside it, which MikroORM does not roll back with the transaction, so a
 * second run is not guaranteed to be the same write (docs/security.md#row-locks-no-lost-invariants-under-concurrency).
 */
export const CONCURRENCY_CONFLICT = '409 Conflict: a concurrent request changed the same data; retry';

/**
 * DomainErrors as they are; known driver errors translated (database unreachable: 503; a write racing
 * the delete of what it refers to: 404; a deadlock or serialization failure: 409); else undefined.
 */
export function asDomainError(err: unknown): DomainError | undefined {
  if (err instanceof DomainError) return err;
  if (isDatabaseUnavailable(err)) return new DatabaseUnavailableError();
  if (isConcurrencyFailure(err)) return new ConflictError(CONCURRENCY_CONFLICT);
  return foreignKeyRace(err);
}
