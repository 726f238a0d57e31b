import type { GraphQLObjectType } from 'graphql';
import type { MiddlewareFn } from 'type-graphql';
import type { CurrentUser, RequestCtx } from '../context/request-ctx';
import { ParamError, UnauthenticatedError } from '../errors/domain-errors';
import { hasNulByte } from '../params/coerce';
import { allowRuleOf, authorize } from './allow';

const ROOT_TYPES: Record<string, 'query' | 'mutation'> = { Query: 'query', Mutation: 'mutation' };

/**
 * The signed-in user for a service that needs the record (who creates, who owns). Whether the caller
 * may call the operation at all was decided by its @Allow before the service ran.
 */
export function requireUser(ctx: RequestCtx): CurrentUser {
  if (ctx.tokenInvalid || !ctx.user) throw new UnauthenticatedError();
  return ctx.user;
}

/**
 * Global GraphQL middleware, root fields only: the @Allow permission of the field (401, scope 403,
 * role 403), the same rule the REST router applies at route level.
 */
export const EnforceAllow: MiddlewareFn<RequestCtx> = ({ context, info }, next) => {
  const op = ROOT_TYPES[info.parentType.name];
  if (op) authorize(context, allowRuleOf((info.parentType as GraphQLObjectType).getFields()[info.fieldName], op));
  return next();
};


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

