import type { MiddlewareFn } from 'type-graphql';
import type { User } from '../../modules/users/user.entity';
import type { RequestCtx } from '../context/request-ctx';
import { ForbiddenError, UnauthenticatedError } from '../errors/domain-errors';

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

/** type-graphql middleware for admin-only operations (our own, so that guests get 401, not 403). */
export const AdminOnly: MiddlewareFn<RequestCtx> = ({ context }, next) => {
  requireAdmin(context);
  return next();
};
