import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { intArray, maxGroupLevel, memberGroupIds } from '../access';

// The namespaces side of the visibility model (docs/permissions.md, "Visibility"): the groups at or
// below a user's groups (`traversal_ids` holds root→self ids and is GIN-indexed, so "member of an
// ancestor" is `traversal_ids && array(<member group ids>)`), and a user's effective level per group.

/** Predicate on a namespaces alias: at or below one of the user's groups (GIN index namespaces_traversal_ids_gin). */
export const inMemberTree = (userId: number, alias: string) => `${alias}.traversal_ids && ${memberGroupIds(userId)}`;

/**
 * Ids of the groups at or below one of the user's groups, as an array subquery: a bitmap scan of the
 * traversal_ids GIN index. Spelled out as ids (not a join to namespaces), or the planner may walk the
 * primary key of every namespace to filter them.
 */
export const memberTreeIds = (userId: number) =>
  `array(select d.id from namespaces d where ${inMemberTree(userId, 'd')})`;

/** Ids of the personal namespaces the user owns, as an array subquery. */
export const ownedNamespaceIdArray = (userId: number) =>
  `array(select o.id from namespaces o where o.owner_id = ${userId})`;

/** Ids of the groups matching `predicate` (on the alias `x`) and of all their ancestors, as an array subquery. */
export const groupsWithAncestors = (predicate: string) =>
  `array(select unnest(x.traversal_ids) from namespaces x where x.kind = 'group'
      and (${predicate}))`;

/** The ancestry (`traversal_ids`, root→self) of the namespace `namespaceId` names, as an int[] expression (a scalar subquery). */
export const ancestryOf = (namespaceId: string) =>
  `(select s.traversal_ids from namespaces s where s.id = ${namespaceId})::int[]`;

/** The parent of the namespace `namespaceId` names, as a scalar subquery (null for a top-level one). */
export const parentOf = (namespaceId: string) => `(select s.parent_id from namespaces s where s.id = ${namespaceId})`;

/** Effective access level per group id (membership here or in an ancestor). One query per batch. */
export function groupLevelsSql(userId: number, ids: readonly number[]): string {
  return `select n.id, ${maxGroupLevel(userId, 'n.traversal_ids')} as level
    from namespaces n where n.id = any(${intArray(ids)})`;
}

/** The caller's effective access level per id, by `sql` (one query per batch; 0 for anonymous callers). */
export async function levelsOf(
  ctx: RequestCtx,
  sql: (userId: number, ids: readonly number[]) => string,
  ids: readonly number[],
): Promise<number[]> {
  if (!ctx.user) return ids.map(() => 0);
  const rows = await sqlRows<{ id: number; level: number }>(ctx.em, sql(Number(ctx.user.id), ids));
  const map = new Map(rows.map((r) => [Number(r.id), Number(r.level)]));
  return ids.map((id) => map.get(id) ?? 0);
}
