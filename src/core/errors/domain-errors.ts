/** One hierarchy of expected failures; rest-error.ts and graphql-error.ts map every code exhaustively. */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'INSUFFICIENT_SCOPE'
  | 'NOT_FOUND'
  | 'PARAM'
  | 'VALIDATION'
  | 'SAVE_FAILED'
  | 'LIMIT_REACHED'
  | 'CONFLICT'
  | 'NOT_ALLOWED'
  | 'BAD_REQUEST'
  | 'PRECONDITION_FAILED'
  | 'UNAVAILABLE';

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
  constructor() {
    super('401 Unauthorized');
  }
}

export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN' as const;
  constructor(readonly reason?: string) {
    super(reason ? `403 Forbidden - ${reason}` : '403 Forbidden');
  }
  /** GitLab's `render_api_error!(message, 403)`: the message as it is, without the "403 Forbidden - " prefix. */
  static withMessage(text: string): ForbiddenError {
    const e = new ForbiddenError(text);
    e.message = text;
    return e;
  }
}

/** The token lacks the scope an operation needs (docs/permissions.md). */
export class InsufficientScopeError extends DomainError {
  readonly code = 'INSUFFICIENT_SCOPE' as const;
  constructor(readonly scope = 'api') {
    super('The request requires higher privileges than provided by the access token.');
  }
}

/** `resource` undefined gives GitLab's generic "404 Not found" (record lookup by primary key). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
  constructor(
    readonly resource?: string,
    message?: string,
  ) {
    super(message ?? (resource ? `404 ${resource} Not Found` : '404 Not found'));
  }
  /** GitLab's bare `not_found!`: "404 Not Found" (e.g. a feature switched off, spec 4.24). */
  static bare(): NotFoundError {
    return new NotFoundError(undefined, '404 Not Found');
  }
}

/** Framework-level parameter problem: 400 {"error": "<text>"}. */
export class ParamError extends DomainError {
  readonly code = 'PARAM' as const;
  constructor(text: string) {
    super(text);
  }
  static missing(...names: string[]): ParamError {
    return new ParamError(names.map((n) => `${n} is missing`).join(', '));
  }
  static invalid(name: string): ParamError {
    return new ParamError(`${name} is invalid`);
  }
  static notInSet(name: string): ParamError {
    return new ParamError(`${name} does not have a valid value`);
  }
}

export type FieldErrors = Record<string, string[]>;

/** Model validation failure: 400 {"message": {"field": ["msg"]}}. */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION' as const;
  constructor(readonly fields: FieldErrors) {
    super(
      Object.entries(fields)
        .map(([k, v]) => `${k} ${v.join(', ')}`)
        .join('; '),
    );
  }
}

/**
 * GitLab's create-group and transfer failures: 400 with a string message embedding a Ruby hash dump
 * (docs/gitlab-compatibility.md, "Error bodies"), e.g. `Failed to save group {:path=>["has already been taken"]}`.
 */
export class SaveFailedError extends DomainError {
  readonly code = 'SAVE_FAILED' as const;
  constructor(
    readonly prefix: string,
    readonly fields: FieldErrors,
  ) {
    super(`${prefix} ${rubyHash(fields)}`);
  }
}

/**
 * A quota refuses the write: GitLab's `error!(messages, 403)`, e.g. POST /projects past the user's
 * projects_limit (lib/api/projects.rb: `project.errors[:limit_reached]`), answered as 403 {"message": [..]}.
 */
export class LimitReachedError extends DomainError {
  readonly code = 'LIMIT_REACHED' as const;
  constructor(readonly messages: string[]) {
    super(messages.join(', '));
  }
}

export class ConflictError extends DomainError {
  readonly code = 'CONFLICT' as const;
  /** `fields`: GitLab's `conflict!(model.errors.messages)`, 409 {"message": {"field": ["msg"]}} (a fork that cannot be saved). */
  constructor(
    message: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
  }
}

/**
 * GitLab's `error!(message, 405)`: the route exists but does not offer this form of the request, e.g.
 * keyset pagination for an order it does not support: 405 {"error": "<message>"}.
 */
export class NotAllowedError extends DomainError {
  readonly code = 'NOT_ALLOWED' as const;
}

/** GitLab's `render_api_error!(message, 400)`: 400 {"message": "<message>"} (e.g. sharing a project of a share-locked group). */
export class BadRequestError extends DomainError {
  readonly code = 'BAD_REQUEST' as const;
  /**
   * `details`: GitLab's `render_api_error!(hash, 400)`, whose `message` is an object (the review apps
   * deletion: its entries and its own `message`), answered as 400 {"message": details}.
   */
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * A REST DELETE whose If-Unmodified-Since is older than the row's last change (GitLab's
 * `destroy_conditionally!`, core/db/delete-claim.ts): 412 {"message": "412 Precondition Failed"}.
 */
export class PreconditionFailedError extends DomainError {
  readonly code = 'PRECONDITION_FAILED' as const;
  constructor() {
    super('412 Precondition Failed');
  }
}

/** The database cannot be reached in time (down, restarting, stopped, pool exhausted): 503, retry later. */
export class DatabaseUnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE' as const;
  constructor() {
    super('503 Service Unavailable');
  }
}

/**
 * A live subscription cannot go on without missing events (its notification connection was lost, or it
 * fell too far behind): GraphQL code SERVICE_UNAVAILABLE with the reason, so the client subscribes again.
 */
export class ResubscribeError extends DomainError {
  readonly code = 'UNAVAILABLE' as const;
}

function rubyHash(fields: FieldErrors): string {
  const parts = Object.entries(fields).map(([k, msgs]) => `:${k}=>[${msgs.map((m) => JSON.stringify(m)).join(', ')}]`);
  return `{${parts.join(', ')}}`;
}

export function assertUnreachable(x: never): never {
  throw new Error(`unhandled error code ${String(x)}`);
}
