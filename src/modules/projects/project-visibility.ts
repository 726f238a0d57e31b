import type { CurrentUser as User, RequestCtx } from '../../core/context/request-ctx';
import {
  activeMembership,
  directProjectIds,
  intArray,
  levelPredicate,
  maxGroupLevel,
  memberGroupIds,
  policy,
  projectMemberLevel,
} from '../access';
import {
  ancestryOf,
  groupsWithAncestors,
  inMemberTree,
  joinNamespace,
  memberTreeIds,
  ownedNamespaceIdArray,
} from '../namespaces';

// Who may see which groups and projects, as SQL predicates for the caller of this request
// (docs/permissions.md, "Visibility"). The predicates read the membership tables inside the statement
// (array subqueries over group_members, namespaces.traversal_ids, project_members and shares), so a
// list costs no extra round trip and no id list to plan (docs/growth.md, "Member lists"). They live
// here because a group's visibility also counts the projects a user reaches. Writes that change access
// (memberships, shares, new groups/projects) call `forgetAccess` (it clears the level loaders).

const uid = (user: User) => Number(user.id);

/** Projects reached other than through a namespace: direct project membership, shares with a group of the member tree. */
const directProjects = (user: User) => `array(${directProjectIds(uid(user))}
    union all select pl.project_id from project_group_links pl where pl.group_id = any(${memberTreeIds(uid(user))}) and ${activeMembership('pl')})`;

/**
 * Predicate on a projects alias: the user has access to the project, written from the membership tables (docs/growth.md "Member
 * lists"): a namespace in their member tree or their own, a direct membership, a share. Each arm is an
 * array subquery, so on a page it is a cheap filter per row and in a count a BitmapOr of index scans
 * (`projects_namespace_created_idx`, `projects_pkey`); no id list leaves the database.
 */
function authorizedProject(user: User, alias: string): string {
  return `(${alias}.namespace_id = any(${memberTreeIds(uid(user))})
    or ${alias}.namespace_id = any(${ownedNamespaceIdArray(uid(user))})
    or ${alias}.id = any(${directProjects(user)}))`;
}

/**
 * Predicate on a namespaces alias: a group "of" the user (GitLab's default GET /groups set):
 * in their member tree, or an ancestor of one of their groups, or a group (with its ancestors) holding
 * a project they reach directly or by share (projects of the member tree sit in it already).
 */
function authorizedGroup(user: User, alias: string): string {
  const reached = `x.id = any(${memberGroupIds(uid(user))}) or x.id = any(array(select dp.namespace_id from projects dp where dp.id = any(${directProjects(user)})))`;
  return `(${inMemberTree(uid(user), alias)} or ${alias}.id = any(${groupsWithAncestors(reached)}))`;
}

/** Effective access level per project id: project membership, group inheritance, shares, own namespace. */
export function projectLevelsSql(u: number, ids: readonly number[]): string {
  return `select p.id, greatest(
      ${projectMemberLevel(u, 'p.id')},
      ${maxGroupLevel(u, 'n.traversal_ids')},
      -- least() ignores NULL: a share counts only for members of the shared group (coalesce to 0).
      coalesce((select max(least(l.group_access, ${maxGroupLevel(u, ancestryOf('l.group_id'), 'sgm')})) from project_group_links l
          where l.project_id = p.id and ${activeMembership('l')}), 0),
      case when n.owner_id = ${u} then 50 else 0 end) as level
    from projects p ${joinNamespace('p.namespace_id')} where p.id = any(${intArray(ids)})`;
}

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
  authorized: (user: User, alias: string) => string,
): string[] | undefined {
  if (!ctx.user || policy.isAdmin(ctx.user)) return undefined;
  const level = levelPredicate(alias, ctx.user);
  return [level, `not (${level}) and ${authorized(ctx.user, alias)}`];
}

export const projectVisibilitySplit = async (ctx: RequestCtx, alias: string) =>
  splitVisibility(ctx, alias, authorizedProject);
export const groupVisibilitySplit = async (ctx: RequestCtx, alias: string) =>
  splitVisibility(ctx, alias, authorizedGroup);

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
