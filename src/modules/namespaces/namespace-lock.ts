import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';

export interface LockedNamespace {
  id: number;
  full_path: string;
  full_name: string;
  traversal_ids: number[];
}

/**
 * Locks a namespace and all its ancestors (root→self, in id order so concurrent writers never
 * deadlock) and returns their current paths. Every write that derives paths from an ancestor (subgroup
 * create, rename, project transfer) takes this lock first inside its transaction, so a rename cannot
 * run between reading a parent's full_path and inserting a child under it.
 */
export async function lockAncestry(em: EntityManager, id: number): Promise<Map<number, LockedNamespace>> {
  const rows = await sqlRows<LockedNamespace>(
    em,
    `select a.id, a.full_path, a.full_name, a.traversal_ids from namespaces a
      where a.id = any((select n.traversal_ids from namespaces n where n.id = ?)::int[]) order by a.id for update`,
    [id],
  );
  return new Map(rows.map((r) => [Number(r.id), r]));
}
