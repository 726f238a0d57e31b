import type { CurrentUser, RequestCtx } from '../context/request-ctx';
import { ParamError, UnauthenticatedError } from '../errors/domain-errors';
import { hasNulByte } from '../params/coerce';

/**
 * The signed-in user for a service that needs the record (who creates, who owns). Whether the caller
 * may call the operation at all was decided by its @Allow before the service ran.
 */
export function requireUser(ctx: RequestCtx): CurrentUser {
  if (ctx.tokenInvalid || !ctx.user) throw new UnauthenticatedError();
  return ctx.user;
}

/** The name of the first argument holding an unstorable string (at any depth), else undefined. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return hasNulByte(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const hit = findNul(v, path);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const object = value as Record<string, unknown>;
  for (const k of Object.keys(object)) {
    const hit = findNul(object[k], k);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * A string argument with a NUL byte is BAD_USER_INPUT (PostgreSQL cannot store it). Applied to root
 * fields and to nested fields written with arguments (`subgroups(search: …)`) by core/graphql/field-guards.ts.
 */
export function rejectNulBytes(args: Record<string, unknown>): void {
  const hit = findNul(args, '');
  if (hit !== undefined) throw ParamError.invalid(hit || 'argument');
}
