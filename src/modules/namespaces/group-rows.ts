import type { EntityManager } from '@mikro-orm/postgresql';
import { byId, type DeleteTarget } from '../../core/db/delete-claim';
import { intArray } from '../access';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { Namespace } from './namespace.entity';

// Groups are namespaces of kind 'group': the groups module reads and writes their rows through these
// (docs/architecture.md, "Tables"). Visibility predicates are passed in, written on the alias named.

/** A new, unsaved group row with these fields (the groups module patches, validates and persists it). */
export const newGroup = (fields: Partial<Namespace>): Namespace => Object.assign(new Namespace(), fields);

/** A column read with a group's row that is not one of its own (`sql` as `as`), handed to `keep`. */
export interface GroupRowExtra {
  sql: string;
  as: string;
  keep: (group: Namespace, value: unknown) => void;
}

/**
 * The group by id or by full path (case-insensitive) that satisfies `visible` (on the alias `n`), managed
 * by `em`; with `extra`, that column is read in the same statement.
 */
export async function findGroupBy(
  em: EntityManager,
  ref: { id: number } | { path: string },
  visible: string,
  extra?: GroupRowExtra,
): Promise<Namespace | undefined> {
  const [cond, value] = 'id' in ref ? ['n.id = ?', ref.id] : ['lower(n.full_path) = lower(?)', ref.path];
  const [row] = await sqlRows<Record<string, unknown>>(
    em,
    `select n.*${extra ? `, ${extra.sql} as ${extra.as}` : ''} from namespaces n where ${cond} and n.kind = 'group' and ${visible}`,
    [value],
  );
  if (!row) return undefined;
  if (!extra) return em.map(Namespace, row as never);
  const { [extra.as]: extraValue, ...own } = row;
  const group = em.map(Namespace, own as never);
  extra.keep(group, extraValue);
  return group;
}

/** Read-only groups among `ids` that satisfy `visible` (on the alias `g`): one statement. */
export async function groupsByIds(em: EntityManager, ids: readonly number[], visible: string): Promise<Namespace[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    em,
    `select g.* from namespaces g where g.id = any(${intArray(ids)}) and g.kind = 'group' and ${visible}`,
  );
  return rows.map((r) => lightEntity(em, Namespace, r));
}

/** Scalar subquery: the highest visibility level among the direct subgroups of the group `groupId` names. */
export const maxSubgroupVisibility = (groupId: string) =>
  `(select max(visibility_level) from namespaces where parent_id = ${groupId})`;

/** Locks sharing in the whole subtree below the group (GitLab's force_share_with_group_lock_on_descendants). */
export async function lockShareWithGroupBelow(em: EntityManager, groupId: number): Promise<void> {
  await sqlRows(
    em,
    'update namespaces set share_with_group_lock = true where traversal_ids @> array[?]::int[] and id <> ?',
    [groupId, groupId],
  );
}

/**
 * A group's path or name changed: its descendants keep their suffix under the new prefixes, one
 * statement for the whole subtree.
 */
export async function renameDescendants(
  em: EntityManager,
  groupId: number,
  path: { old: string; now: string },
  name: { old: string; now: string },
): Promise<void> {
  await sqlRows(
    em,
    `update namespaces set full_path = ? || substr(full_path, ?), full_name = ? || substr(full_name, ?)
          where traversal_ids @> array[?]::int[] and id <> ?`,
    [path.now, path.old.length + 1, name.now, name.old.length + 1, groupId, groupId],
  );
}

/**
 * A group moves under another (or to the top): the group and its descendants take the new parent's
 * traversal_ids, full path and full name as their prefix, one statement for the subtree (the group's own
 * row included; its parent_id and visibility are the caller's entity write). Callers hold the subtree's
 * and both ancestries' locks.
 */
export async function moveSubtree(
  em: EntityManager,
  groupId: number,
  old: { fullPath: string; fullName: string },
  now: { traversalIds: readonly number[]; fullPath: string; fullName: string },
): Promise<void> {
  await sqlRows(
    em,
    `update namespaces set traversal_ids = ?::int[] || traversal_ids[array_position(traversal_ids, ?):],
            full_path = ? || substr(full_path, ?), full_name = ? || substr(full_name, ?)
      where traversal_ids @> array[?]::int[]`,
    [
      `{${now.traversalIds.join(',')}}`,
      groupId,
      now.fullPath,
      old.fullPath.length + 1,
      now.fullName,
      old.fullName.length + 1,
      groupId,
    ],
  );
}

/** GitLab's transfer under a more private parent: descendants more visible than `level` take it. */
export async function capSubgroupVisibility(em: EntityManager, groupId: number, level: number): Promise<void> {
  await sqlRows(
    em,
    'update namespaces set visibility_level = ? where traversal_ids @> array[?]::int[] and id <> ? and visibility_level > ?',
    [level, groupId, groupId, level],
  );
}

/** The delete claim of a group's row (404 Group when it is gone). */
export const groupClaim = (id: number): DeleteTarget => byId('namespaces', id, 'Group');

export interface SubtreeGroupRow {
  id: number;
  name: string;
  path: string;
  full_path: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Every group of a subtree (the group and its descendants), deepest first (GitLab destroys them so). */
export function subtreeDeepestFirst(em: EntityManager, groupId: number): Promise<SubtreeGroupRow[]> {
  return sqlRows<SubtreeGroupRow>(
    em,
    `select id, name, path, full_path, created_at, updated_at from namespaces where traversal_ids @> array[?]::int[] order by cardinality(traversal_ids) desc, id`,
    [groupId],
  );
}

/** A select of one row per descendant group (not itself) of the group `groupId` names that satisfies `predicate` (on `d`), for counts. */
export const descendantGroupRows = (groupId: string, predicate: string) =>
  `select 1 from namespaces d where d.traversal_ids @> array[${groupId}] and d.id <> ${groupId} and d.kind = 'group' and ${predicate}`;

/**
 * The namespaces a group list reads, as `n`: all of them, or with `fence` (a predicate on `n` that few
 * rows match, such as a user's own groups) those rows read first behind an optimization fence
 * (`offset 0`): left to the planner, `id = any(…)` under `order by name limit 21` walks the name index
 * of every group, a cost that grows with the instance, not with the user.
 */
export const groupListRows = (fence?: string) =>
  fence ? `(select * from namespaces n where ${fence} offset 0) n` : 'namespaces n';
