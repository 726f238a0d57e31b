import type { CurrentUser as User } from '../../core/context/request-ctx';
import { VISIBILITY_LEVEL } from './visibility.type';

/**
 * SQL twins of the visibility model (docs/permissions.md, "Visibility"). Every fragment is set-based
 * (no query per level of nesting): `namespaces.traversal_ids` holds root→self ids and is GIN-indexed,
 * so "member of an ancestor" is `traversal_ids && array(<member group ids>)`.
 * User ids are integers from the database and are inlined as numbers.
 */
const uid = (user: User) => Number(user.id);

/** A membership or share counts until its expires_at day (GitLab removes expired members daily). */
export const activeMembership = (alias: string) =>
  `(${alias}.expires_at is null or ${alias}.expires_at > current_date)`;

export function intArray(ids: readonly number[]): string {
  return `'{${ids.map((id) => Math.trunc(Number(id))).join(',')}}'::int[]`;
}

/**
 * The user's active direct group memberships as an array subquery: PostgreSQL runs it once per
 * statement (an InitPlan), so predicates built on it cost one index lookup of group_members.
 */
const memberGroups = (user: User) =>
  `array(select gm.group_id from group_members gm where gm.user_id = ${uid(user)} and ${activeMembership('gm')})`;

/** Predicate on a namespaces alias: at or below one of the user's groups (GIN index namespaces_traversal_ids_gin). */
const inMemberTree = (user: User, alias: string) => `${alias}.traversal_ids && ${memberGroups(user)}`;

/**
 * Ids of the groups at or below one of the user's groups, as an array subquery: a bitmap scan of the
 * traversal_ids GIN index. Spelled out as ids (not a join to namespaces), or the planner may walk the
 * primary key of every namespace to filter them.
 */
const memberTree = (user: User) => `array(select d.id from namespaces d where ${inMemberTree(user, 'd')})`;

/** Projects reached other than through a namespace: direct project membership, shares with a group of the member tree. */
const directProjects = (
  user: User,
) => `array(select pm.project_id from project_members pm where pm.user_id = ${uid(user)} and ${activeMembership('pm')}
    union all select pl.project_id from project_group_links pl where pl.group_id = any(${memberTree(user)}) and ${activeMembership('pl')})`;

/**
 * Predicate on a projects alias: the user has access to the project, written from the membership tables (docs/growth.md "Member
 * lists"): a namespace in their member tree or their own, a direct membership, a share. Each arm is an
 * array subquery, so on a page it is a cheap filter per row and in a count a BitmapOr of index scans
 * (`projects_namespace_created_idx`, `projects_pkey`); no id list leaves the database.
 */
export function authorizedProject(user: User, alias: string): string {
  return `(${alias}.namespace_id = any(${memberTree(user)})
    or ${alias}.namespace_id = any(array(select o.id from namespaces o where o.owner_id = ${uid(user)}))
    or ${alias}.id = any(${directProjects(user)}))`;
}

/**
 * Predicate on a namespaces alias: a group "of" the user (GitLab's default GET /groups set):
 * in their member tree, or an ancestor of one of their groups, or a group (with its ancestors) holding
 * a project they reach directly or by share (projects of the member tree sit in it already).
 */
export function authorizedGroup(user: User, alias: string): string {
  return `(${inMemberTree(user, alias)} or ${alias}.id = any(array(select unnest(x.traversal_ids) from namespaces x where x.kind = 'group'
      and (x.id = any(${memberGroups(user)}) or x.id = any(array(select dp.namespace_id from projects dp where dp.id = any(${directProjects(user)})))))))`;
}

/** Public for everyone; internal too for signed-in, non-external users (docs/permissions.md, "Visibility"). */
export function levelPredicate(alias: string, user: User | null): string {
  if (!user || user.external) return `${alias}.visibility_level = ${VISIBILITY_LEVEL.PUBLIC}`;
  return `${alias}.visibility_level >= ${VISIBILITY_LEVEL.INTERNAL}`;
}

/** Effective access level per group id (membership here or in an ancestor). One query per batch. */
export function groupLevelsSql(user: User, ids: readonly number[]): string {
  return `select n.id, coalesce((select max(gm.access_level) from group_members gm
      where gm.user_id = ${uid(user)} and gm.group_id = any(n.traversal_ids) and ${activeMembership('gm')}), 0) as level
    from namespaces n where n.id = any(${intArray(ids)})`;
}

/** Effective access level per project id: project membership, group inheritance, shares, own namespace. */
export function projectLevelsSql(user: User, ids: readonly number[]): string {
  const u = uid(user);
  return `select p.id, greatest(
      coalesce((select max(pm.access_level) from project_members pm where pm.project_id = p.id and pm.user_id = ${u} and ${activeMembership('pm')}), 0),
      coalesce((select max(gm.access_level) from group_members gm where gm.user_id = ${u} and gm.group_id = any(n.traversal_ids) and ${activeMembership('gm')}), 0),
      -- least() ignores NULL: a share counts only for members of the shared group (coalesce to 0).
      coalesce((select max(least(l.group_access, coalesce((select max(sgm.access_level) from group_members sgm join namespaces s on s.id = l.group_id
          where sgm.user_id = ${u} and sgm.group_id = any(s.traversal_ids) and ${activeMembership('sgm')}), 0))) from project_group_links l
          where l.project_id = p.id and ${activeMembership('l')}), 0),
      case when n.owner_id = ${u} then 50 else 0 end) as level
    from projects p join namespaces n on n.id = p.namespace_id where p.id = any(${intArray(ids)})`;
}
