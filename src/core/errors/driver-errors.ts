import { DatabaseUnavailableError, DomainError } from './domain-errors';

// Node socket errors and PostgreSQL SQLSTATEs that mean "the database is not reachable right now":
// class 08 (connection exception), 57P01-57P03 (shutdown, crash shutdown, cannot connect now),
// 57014 (statement_timeout), 53300 (too many connections). https://www.postgresql.org/docs/current/errcodes-appendix.html
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_STREAM_WRITE_AFTER_END', 'ERR_STREAM_DESTROYED', '57P01', '57P02', '57P03', '57014', '53300']);
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

/** DomainErrors as they are; known driver errors translated (database unreachable: 503); else undefined. */
export function asDomainError(err: unknown): DomainError | undefined {
  if (err instanceof DomainError) return err;
  if (isDatabaseUnavailable(err)) return new DatabaseUnavailableError();
  return undefined;
}
