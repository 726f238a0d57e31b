import type { MiddlewareFn } from 'type-graphql';
import type { User } from '../../modules/users/user.entity';
import type { RequestCtx } from '../context/request-ctx';
import { ForbiddenError, ParamError, UnauthenticatedError } from '../errors/domain-errors';
import { hasNulByte } from '../params/coerce';

/** The signed-in user, or 401. */
export function requireUser(ctx: RequestCtx): User {
  if (ctx.tokenInvalid || !ctx.user) throw new UnauthenticatedError();
  return ctx.user;
}

/** The signed-in administrator: 401 for anonymous callers, 403 for other users. */
export function requireAdmin(ctx: RequestCtx): User {
  const user = requireUser(ctx);
  if (!user.admin) throw new ForbiddenError();
  return user;
}

/** Global GraphQL middleware: a supplied but unknown token fails every root field with 401. */
export const RejectInvalidToken: MiddlewareFn<RequestCtx> = ({ context, info }, next) => {
  if (context.tokenInvalid && info.parentType.name in ROOT_TYPES) throw new UnauthenticatedError();
  return next();
};

const ROOT_TYPES: Record<string, true> = { Query: true, Mutation: true };

function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return hasNulByte(value) ? path : undefined;
  if (Array.isArray(value)) return value.map((v) => findNul(v, path)).find((x) => x !== undefined);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = findNul(v, k);
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * Global GraphQL middleware: a string argument with a NUL byte is BAD_USER_INPUT (PostgreSQL cannot
 * store it). Root fields, and nested fields written with arguments (`subgroups(search: …)`); fields
 * without arguments in the query skip the walk.
 */
export const RejectNulBytes: MiddlewareFn<RequestCtx> = ({ args, info }, next) => {
  if (info.parentType.name in ROOT_TYPES || info.fieldNodes[0].arguments?.length) {
    const hit = findNul(args, '');
    if (hit !== undefined) throw ParamError.invalid(hit || 'argument');
  }
  return next();
};

