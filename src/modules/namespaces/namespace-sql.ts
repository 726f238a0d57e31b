import type { EntityManager } from '@mikro-orm/postgresql';
import { lightEntity, pgArray, sqlEntities, sqlRows } from '../../core/db/sql';
import { AccessLevel, joinGroupMembers, otherActiveOwner } from '../access';
import { Namespace } from './namespace.entity';

// The namespaces table for other modules' statements (docs/architecture.md, "Tables"): the hierarchy
// (`traversal_ids`, root→self, GIN-indexed), full paths, personal namespaces and row locks. Other
// modules name a namespace row only through these.

/** Joins the namespace that `namespaceId` (a column of the caller's row) names, as `as`. */
export const joinNamespace = (namespaceId: string, as = 'n') => `join namespaces ${as} on ${as}.id = ${namespaceId}`;

/** A select of the ids of the groups (alias `n`) that meet `condition`, and with `oneId` only the group `?` names. */
export const groupIdsWhere = (condition: string, oneId = false) =>
  `select n.id from namespaces n where n.kind = 'group' and ${condition}${oneId ? ' and n.id = ?' : ''}`;

/** A select of the ids of the namespaces whose full path is `?` (case-insensitive; namespaces_full_path_lower_idx). */
export const namespaceIdsByFullPath = () => 'select id from namespaces where lower(full_path) = lower(?)';

/**
 * A row source (`id, full_path, full_name`, aliased `as`) of the namespaces under (or being) a namespace whose
 * path or name is like `?` and `?`: the trigram indexes find those, traversal_ids (GIN) their descendants.
 */
export const namespaceSubtreesLike = (as = 'd') =>
  `(select ${as}.id, ${as}.full_path, ${as}.full_name from namespaces ${as}
     where ${as}.traversal_ids && array(select m.id from namespaces m where m.path ilike ? or m.name ilike ?)) ${as}`;

/** The id of the group whose full path is `path` (case-insensitive), or null. */
export async function groupIdByFullPath(em: EntityManager, path: string): Promise<number | null> {
  const [row] = await sqlRows<{ id: number }>(
    em,
    `select id from namespaces where kind = 'group' and lower(full_path) = lower(?)`,
    [path],
  );
  return row?.id ?? null;
}

/**
 * Predicate with two parameters (a path, a user id): a namespace other than that user's own has the
 * full path (case-insensitive), so it cannot be the user's username.
 */
export const fullPathTakenByOther = () =>
  'exists(select 1 from namespaces where lower(full_path) = lower(?) and (owner_id is null or owner_id <> ?))';

/** The groups in which the user is an Owner (any membership row), locked in id order for the caller's transaction. */
export async function lockGroupsOwnedBy(em: EntityManager, userId: number): Promise<number[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    `select n.id from namespaces n ${joinGroupMembers('n.id')}
        where gm.user_id = ? and gm.access_level = ${AccessLevel.OWNER} order by n.id for update of n`,
    [userId],
  );
  return rows.map((r) => Number(r.id));
}

/** Of these groups, those with no active Owner but the user (GitLab: a sole owner's groups). */
export async function groupsWithoutOtherOwner(em: EntityManager, ids: number[], userId: number): Promise<number[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    `select n.id from namespaces n where n.id = any(?::int[]) and not ${otherActiveOwner('n.id', '?')}`,
    [`{${ids.join(',')}}`, userId],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Creates the personal namespace of a just-inserted user (path = username; a root, so its traversal
 * ids are its own id), in the caller's transaction; the caller's next flush stores the ids.
 */
export async function createPersonalNamespace(
  em: EntityManager,
  owner: { id: number; username: string },
  now: Date,
): Promise<Namespace> {
  const ns = Object.assign(new Namespace(), {
    name: owner.username,
    path: owner.username,
    fullPath: owner.username,
    fullName: owner.username,
    kind: 'user' as const,
    ownerId: owner.id,
    createdAt: now,
    updatedAt: now,
  });
  em.persist(ns);
  await em.flush();
  ns.traversalIds = [ns.id];
  return ns;
}

/** A username change renames the user's personal namespace (its path is the username). */
export async function renamePersonalNamespace(em: EntityManager, id: number, username: string): Promise<void> {
  await em.nativeUpdate(Namespace, { id }, { name: username, path: username, fullPath: username, fullName: username });
}

/** Deletes one namespace row (its projects and subgroups go by foreign-key cascade). */
export async function deleteNamespace(em: EntityManager, id: number): Promise<void> {
  await em.nativeDelete(Namespace, { id });
}

/** Deletes the personal namespace of a user (with its projects, by foreign-key cascade). */
export async function deletePersonalNamespaceOf(em: EntityManager, ownerId: number): Promise<void> {
  await em.nativeDelete(Namespace, { ownerId });
}

/** A read-only Namespace from a row carrying the namespaces columns: not in the identity map. */
export const namespaceFromRow = (em: EntityManager, row: Record<string, unknown>): Namespace =>
  lightEntity(em, Namespace, row);

/** A select of the ids of the namespaces at or below any of `rootIds` (an int[] expression): GIN on traversal_ids. */
export const subtreeIds = (rootIds: string, as = 'n') =>
  `select ${as}.id from namespaces ${as} where ${as}.traversal_ids && ${rootIds}`;

/** Locks the namespaces at or below these ones (id order), for the caller's transaction. */
export async function lockSubtrees(em: EntityManager, rootIds: readonly number[]): Promise<void> {
  await sqlRows(em, `${subtreeIds('?::int[]')} order by n.id for update`, [pgArray(rootIds)]);
}

/** GitLab's `Namespace.find_by_path_or_name` (path or name, case-insensitive), or by id when all digits. */
export async function findNamespaceByPathOrName(em: EntityManager, ref: string): Promise<Namespace | null> {
  if (/^\d+$/.test(ref)) return Number(ref) > 2147483647 ? null : em.findOne(Namespace, { id: Number(ref) });
  const [ns] = await sqlEntities(
    em,
    Namespace,
    'select n.* from namespaces n where lower(n.path) = lower(?) or lower(n.name) = lower(?) order by n.id limit 1',
    [ref, ref],
  );
  return ns ?? null;
}

/** An int[] subquery: the group `namespaceId` names and its ancestors (empty for a personal namespace). */
export const groupAndAncestorIds = (namespaceId: string) =>
  `array(select unnest(n.traversal_ids) from namespaces n where n.id = ${namespaceId} and n.kind = 'group')`;

/** A select of the owner of the personal namespace `namespaceId` names (no row for a group). */
export const personalNamespaceOwnerId = (namespaceId: string) =>
  `select n.owner_id from namespaces n where n.id = ${namespaceId} and n.owner_id is not null`;

/** An int[] subquery: the ids of the group `groupId` names and its descendants (without itself when `self` is false). */
export const descendantIds = (groupId: string, self = true) =>
  `array(select d.id from namespaces d where d.traversal_ids @> array[${groupId}]${self ? '' : ` and d.id <> ${groupId}`})`;

/** A select of the ids of the personal namespaces the user `userId` owns. */
export const ownedNamespaceIds = (userId: string) => `select id from namespaces where owner_id = ${userId}`;

/**
 * A select of `owned_namespace_id` and `owner_id` for those of the namespaces `ids` (an int[]
 * expression) that are personal: join the owner's row on `owner_id`.
 */
export const personalNamespaceOwners = (ids: string) =>
  `select n.id as owned_namespace_id, n.owner_id from namespaces n where n.id = any(${ids}) and n.kind = 'user'`;

/** Locks one namespace row (no project is created in or moved into it until the caller's transaction ends). */
export async function lockNamespace(em: EntityManager, id: number): Promise<void> {
  await sqlRows(em, 'select id from namespaces where id = ? for update', [id]);
}

/** The namespace by id, managed by `em` (null when there is none). */
export const findNamespace = (em: EntityManager, id: number): Promise<Namespace | null> =>
  em.findOne(Namespace, { id });

/** The group by id, managed by `em` (undefined when there is none or it is a personal namespace). */
export async function findGroup(em: EntityManager, id: number): Promise<Namespace | undefined> {
  const [group] = await sqlEntities(em, Namespace, `select n.* from namespaces n where n.id = ? and n.kind = 'group'`, [
    id,
  ]);
  return group;
}

/** Whether the namespace `id` satisfies `predicate` (written on the alias `n`). */
export async function namespaceSatisfies(em: EntityManager, id: number, predicate: string): Promise<boolean> {
  const rows = await sqlRows(em, `select 1 from namespaces n where n.id = ? and ${predicate}`, [id]);
  return rows.length > 0;
}

/** The namespace by id, managed by `em` (throws when there is none). */
export const getNamespace = (em: EntityManager, id: number): Promise<Namespace> => em.findOneOrFail(Namespace, { id });

/** A row source: each namespace's `id` and ancestry (`traversal_ids`, root→self) as `as`, for per-group lists keyed by `as.id`. */
export const groupAncestryRows = (as: string) => `(select id, traversal_ids from namespaces) ${as}`;

/** Predicate: the namespace that `namespaceId` names satisfies `predicate` (written on the alias `as`). */
export const namespaceMatches = (namespaceId: string, as: string, predicate: string) =>
  `exists (select 1 from namespaces ${as} where ${as}.id = ${namespaceId} and ${predicate})`;

/** The full path of a namespace ('' when there is none). */
export async function namespaceFullPath(em: EntityManager, id: number): Promise<string> {
  const [row] = await sqlRows<{ path: string }>(em, 'select full_path as path from namespaces where id = ?', [id]);
  return row?.path ?? '';
}
