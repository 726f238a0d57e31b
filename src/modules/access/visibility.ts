import type { RequestCtx } from '../../core/context/request-ctx';
import { activeMembership, authorizedGroup, authorizedProject, levelPredicate } from './visibility-sql';
import { policy } from './policy';

// Who may see which groups and projects, as SQL predicates for the caller of this request. The
// predicates read the membership tables inside the statement (`authorizedProject`, `authorizedGroup`:
// array subqueries over group_members, namespaces.traversal_ids, project_members and shares), so a list
// costs no extra round trip and no id list to plan (docs/growth.md, "Member lists"). Writes that change
// access (memberships, shares, new groups/projects) call `forgetAccess` (it clears the level loaders).

/** Predicate on a projects alias: may the caller read this project? */
export async function projectVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return levelPredicate(alias, null);
  return `(${levelPredicate(alias, ctx.user)} or ${authorizedProject(ctx.user, alias)})`;
}

/** Predicate on a namespaces alias: may the caller read this group? */
export async function groupVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return levelPredicate(alias, null);
  return `(${levelPredicate(alias, ctx.user)} or ${authorizedGroup(ctx.user, alias)})`;
}

/**
 * The disjoint halves of a signed-in non-admin caller's project (or group) visibility predicate, for
 * `ListQuery.split`: visible by level, else by membership. Undefined for admins and anonymous callers (one predicate).
 */
function splitVisibility(
  ctx: RequestCtx,
  alias: string,
  authorized: (user: NonNullable<RequestCtx['user']>, alias: string) => string,
): string[] | undefined {
  if (!ctx.user || policy.isAdmin(ctx.user)) return undefined;
  const level = levelPredicate(alias, ctx.user);
  return [level, `not (${level}) and ${authorized(ctx.user, alias)}`];
}

export const projectVisibilitySplit = async (ctx: RequestCtx, alias: string) =>
  splitVisibility(ctx, alias, authorizedProject);
export const groupVisibilitySplit = async (ctx: RequestCtx, alias: string) =>
  splitVisibility(ctx, alias, authorizedGroup);

/**
 * Predicate on a namespaces alias for the namespaces API: admins all; others their own namespace and
 * the groups they are an active member of, with those groups' descendants (inherited membership).
 */
export async function namespaceVisibility(ctx: RequestCtx, alias: string): Promise<string> {
  if (policy.isAdmin(ctx.user)) return 'true';
  if (!ctx.user) return 'false';
  const uid = Number(ctx.user.id);
  return `(${alias}.owner_id = ${uid} or (${alias}.kind = 'group' and ${alias}.traversal_ids &&
    array(select gm.group_id from group_members gm where gm.user_id = ${uid} and ${activeMembership('gm')})))`;
}

/** Predicate: the group is one "of" the caller (their default GET /groups set). */
export async function ownGroups(ctx: RequestCtx, alias: string): Promise<string> {
  return ctx.user ? authorizedGroup(ctx.user, alias) : 'false';
}

/** Predicate: the caller is a member of the project (directly or through groups and shares). */
export async function memberProjects(ctx: RequestCtx, alias: string): Promise<string> {
  return ctx.user ? authorizedProject(ctx.user, alias) : 'false';
}

/** Call after a write that changes who can see what (memberships, shares, new groups or projects). */
export function forgetAccess(ctx: RequestCtx): void {
  ctx.loaders.groupLevel.clearAll();
  ctx.loaders.projectLevel.clearAll();
}
