import type { EntityManager } from '@mikro-orm/postgresql';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { AccessLevel, joinGroupMembers, otherActiveOwner } from '../access';
import { Namespace } from './namespace.entity';

// The namespaces table for other modules' statements (docs/architecture.md, "Tables"): the hierarchy
// (`traversal_ids`, root→self, GIN-indexed), full paths, personal namespaces and row locks. Other
// modules name a namespace row only through these.

/** Joins the namespace that `namespaceId` (a column of the caller's row) names, as `as`. */
export const joinNamespace = (namespaceId: string, as = 'n') => `join namespaces ${as} on ${as}.id = ${namespaceId}`;

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
