import type { User } from '../users/user.entity';
import { VisibilityLevel } from './access-level';

/**
 * SQL twins of the visibility model (gitlab-behaviour §2.1, §2.3, §2.5). Every fragment is set-based
 * (no query per level of nesting): `namespaces.traversal_ids` holds root→self ids and is GIN-indexed,
 * so "member of an ancestor" is `traversal_ids && array(<member group ids>)`.
 * User ids are integers from the database and are inlined as numbers.
 */
const uid = (user: User) => Number(user.id);

export function intArray(ids: readonly number[]): string {
  return `'{${ids.map((id) => Math.trunc(Number(id))).join(',')}}'::int[]`;
}

/** Groups the user is a direct member of. */
export function memberGroupIdsSql(user: User): string {
  return `select gm.group_id from group_members gm where gm.user_id = ${uid(user)}`;
}

/** Projects the user has any access to: membership, inherited group membership, shares, own namespace. */
export function authorizedProjectIdsSql(user: User): string {
  const groups = `array(${memberGroupIdsSql(user)})`;
  return `select pm.project_id from project_members pm where pm.user_id = ${uid(user)}
    union select ap.id from projects ap join namespaces an on an.id = ap.namespace_id where an.traversal_ids && ${groups}
    union select pl.project_id from project_group_links pl join namespaces ps on ps.id = pl.group_id where ps.traversal_ids && ${groups}
    union select op.id from projects op join namespaces onn on onn.id = op.namespace_id where onn.owner_id = ${uid(user)}`;
}

/**
 * Groups "of" the user (GitLab's default GET /groups set): groups they are a member of and their
 * ancestors and descendants, plus groups (and ancestors) holding projects they have access to.
 */
export function authorizedGroupIdsSql(user: User): string {
  const members = memberGroupIdsSql(user);
  return `select unnest(mg.traversal_ids) from namespaces mg where mg.id in (${members})
    union select dg.id from namespaces dg where dg.traversal_ids && array(${members})
    union select unnest(pg.traversal_ids) from projects pp join namespaces pg on pg.id = pp.namespace_id
      where pg.kind = 'group' and pp.id in (${authorizedProjectIdsSql(user)})`;
}

function levelPredicate(alias: string, user: User | null): string {
  if (!user) return `${alias}.visibility_level = ${VisibilityLevel.PUBLIC}`;
  // External users see internal objects only where they are members (gitlab-behaviour §2.3).
  return user.external
    ? `${alias}.visibility_level = ${VisibilityLevel.PUBLIC}`
    : `${alias}.visibility_level >= ${VisibilityLevel.INTERNAL}`;
}

/** Predicate on a namespaces alias: may the caller read this group? */
export function groupVisibleSql(alias: string, user: User | null): string {
  if (user?.admin) return 'true';
  if (!user) return levelPredicate(alias, user);
  return `(${levelPredicate(alias, user)} or ${alias}.id in (${authorizedGroupIdsSql(user)}))`;
}

/** Predicate on a projects alias: may the caller read this project? */
export function projectVisibleSql(alias: string, user: User | null): string {
  if (user?.admin) return 'true';
  if (!user) return levelPredicate(alias, user);
  return `(${levelPredicate(alias, user)} or ${alias}.id in (${authorizedProjectIdsSql(user)}))`;
}

/** Effective access level per group id (membership here or in an ancestor). One query per batch. */
export function groupLevelsSql(user: User, ids: readonly number[]): string {
  return `select n.id, coalesce((select max(gm.access_level) from group_members gm
      where gm.user_id = ${uid(user)} and gm.group_id = any(n.traversal_ids)), 0) as level
    from namespaces n where n.id = any(${intArray(ids)})`;
}

/** Effective access level per project id: project membership, group inheritance, shares, own namespace. */
export function projectLevelsSql(user: User, ids: readonly number[]): string {
  const u = uid(user);
  return `select p.id, greatest(
      coalesce((select max(pm.access_level) from project_members pm where pm.project_id = p.id and pm.user_id = ${u}), 0),
      coalesce((select max(gm.access_level) from group_members gm where gm.user_id = ${u} and gm.group_id = any(n.traversal_ids)), 0),
      coalesce((select max(least(l.group_access, (select max(sgm.access_level) from group_members sgm join namespaces s on s.id = l.group_id
          where sgm.user_id = ${u} and sgm.group_id = any(s.traversal_ids)))) from project_group_links l where l.project_id = p.id), 0),
      case when n.owner_id = ${u} then 50 else 0 end) as level
    from projects p join namespaces n on n.id = p.namespace_id where p.id = any(${intArray(ids)})`;
}
