import { Extensions } from 'type-graphql';
import type { GraphQLField } from 'graphql';
import type { RequestCtx } from '../context/request-ctx';
import { ForbiddenError, InsufficientScopeError, UnauthenticatedError } from '../errors/domain-errors';

/**
 * Who may call a root field, declared once on the resolver method and read by both surfaces
 * (docs/permissions.md): the REST router when it compiles a route, and the GraphQL root-field guard.
 * Object-level rules (group owner, project Master) stay in modules/access/policy.ts.
 */
export type Role = 'anonymous' | 'user' | 'admin';

/** Token scopes we issue (GitLab's names). `read_api` is offered as later GitLab does. */
export const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'sudo', 'read_registry'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export interface Permission {
  role: Role;
  /** Scopes accepted besides the defaults (`api`; `read_api` too for queries), e.g. read_user on GET /users. */
  scopes?: TokenScope[];
}

export interface AllowRule extends Permission {
  /** Query fields accept read_api; mutations need api. */
  operation: 'query' | 'mutation';
}

const EXTENSION = 'allow';

/** `@Allow('admin')`, `@Allow('anonymous', { scopes: ['read_user'] })` on a @Query or @Mutation. */
export function Allow(role: Role, opts: Omit<Permission, 'role'> = {}): MethodDecorator {
  return Extensions({ [EXTENSION]: { role, ...opts } });
}

/** The permission of a root field; a root field without @Allow is a programming error (fails at start-up). */
export function allowRuleOf(field: GraphQLField<unknown, unknown>, operation: 'query' | 'mutation'): AllowRule {
  const p = field.extensions?.[EXTENSION] as Permission | undefined;
  if (!p) throw new Error(`root field ${field.name} has no @Allow(...) permission`);
  return { ...p, operation };
}

function scopeAccepted(rule: AllowRule, scopes: readonly string[]): boolean {
  if (scopes.includes('api')) return true;
  if (rule.operation === 'query' && scopes.includes('read_api')) return true;
  return (rule.scopes ?? []).some((s) => scopes.includes(s));
}

/**
 * GitLab's order (docs/gitlab-compatibility.md, "Order of checks"): 401 for a bad or missing token,
 * 403 insufficient_scope (GitLab checks the scope while authenticating), then 403 for the role.
 * Runs before parameter validation on REST.
 */
export function authorize(ctx: RequestCtx, rule: AllowRule): void {
  if (ctx.tokenInvalid) throw new UnauthenticatedError();
  if (ctx.refusal) throw ctx.refusal;
  if (ctx.credential && !scopeAccepted(rule, ctx.credential.scopes)) throw new InsufficientScopeError();
  if (rule.role !== 'anonymous' && !ctx.user) throw new UnauthenticatedError();
  if (rule.role === 'admin' && !ctx.user?.admin) throw new ForbiddenError();
}
