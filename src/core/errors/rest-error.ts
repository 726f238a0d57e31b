import {
  BadRequestError,
  ConflictError,
  DomainError,
  InsufficientScopeError,
  LimitReachedError,
  assertUnreachable,
} from './domain-errors';

export interface RestError {
  status: number;
  body: Record<string, unknown>;
}

/** Maps a DomainError to GitLab's exact status and body (docs/gitlab-compatibility.md, "Error bodies"). */
export function toRestError(err: DomainError): RestError {
  const code = err.code;
  switch (code) {
    case 'UNAUTHENTICATED':
    case 'FORBIDDEN':
    case 'NOT_FOUND':
    case 'SAVE_FAILED':
      return { status: statusOf(code), body: { message: err.message } };
    case 'BAD_REQUEST':
      return { status: 400, body: { message: (err as BadRequestError).details ?? err.message } };
    case 'INSUFFICIENT_SCOPE':
      return {
        status: 403,
        body: {
          error: 'insufficient_scope',
          error_description: err.message,
          scope: (err as InsufficientScopeError).scope,
        },
      };
    case 'PARAM':
      return { status: 400, body: { error: err.message } };
    case 'NOT_ALLOWED':
      return { status: 405, body: { error: err.message } };
    case 'VALIDATION':
      return { status: 400, body: { message: (err as unknown as { fields: unknown }).fields } };
    case 'LIMIT_REACHED':
      return { status: 403, body: { message: (err as LimitReachedError).messages } };
    case 'CONFLICT':
      return { status: 409, body: { message: (err as ConflictError).fields ?? err.message } };
    case 'PRECONDITION_FAILED':
      return { status: 412, body: { message: err.message } };
    case 'UNAVAILABLE':
      return { status: 503, body: { message: '503 Service Unavailable' } };
    default:
      return assertUnreachable(code);
  }
}

function statusOf(code: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'NOT_FOUND' | 'SAVE_FAILED' | 'BAD_REQUEST'): number {
  return { UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, SAVE_FAILED: 400, BAD_REQUEST: 400 }[code];
}

export const INTERNAL_ERROR: RestError = { status: 500, body: { message: '500 Internal Server Error' } };
export const ROUTE_NOT_FOUND: RestError = { status: 404, body: { error: '404 Not Found' } };
