import DataLoader from 'dataloader';
import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntitiesById, lightEntity, sqlRows } from '../../core/db/sql';
import { namespaceVisibility, activeGroupMemberCount, intArray } from '../access';
import { groupLevelsSql, levelsOf } from './namespace-access';
import { Namespace } from './namespace.entity';

function byId<T extends { id: number }>(ids: readonly number[], items: T[]): (T | null)[] {
  const map = new Map(items.map((i) => [i.id, i]));
  return ids.map((id) => map.get(id) ?? null);
}

/**
 * Distinct users with an active membership in each group or its descendants: one query per batch.
 * Descendants first (GIN on traversal_ids), then their members by group_id: a join from the members
 * side could walk every namespace by id, a cost that grows with the instance, not with the batch.
 */
async function membersCountWithDescendants(ctx: RequestCtx, ids: readonly number[]): Promise<number[]> {
  const rows = await sqlRows<{ id: number; n: string }>(
    ctx.em,
    `select g.id, ${activeGroupMemberCount('array(select d.id from namespaces d where d.traversal_ids @> array[g.id])')} as n
       from namespaces g where g.id = any(${intArray(ids)})`,
  );
  const map = new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
  return ids.map((id) => map.get(id) ?? 0);
}

/** Namespaces by id (a project's namespace, a group's parent): one query per batch. */
export function namespaceLoaders(ctx: RequestCtx) {
  return {
    namespace: new PeekLoader<number, Namespace | null>(async (ids) =>
      byId(ids, await lightEntitiesById(ctx.em, Namespace, ids)),
    ),
    /** Namespaces by id that `namespace(fullPath)` would show the caller (else null): a namespace's parent. */
    visibleNamespace: new PeekLoader<number, Namespace | null>(async (ids) => {
      const rows = await sqlRows<Record<string, unknown>>(
        ctx.em,
        `select n.* from namespaces n where n.id = any(${intArray(ids)}) and ${await namespaceVisibility(ctx, 'n')}`,
      );
      return byId(
        ids,
        rows.map((r) => lightEntity(ctx.em, Namespace, r)),
      );
    }),
    membersCountWithDescendants: new DataLoader<number, number>((ids) => membersCountWithDescendants(ctx, ids)),
    /** The caller's effective access level per group: one query per batch. */
    groupLevel: new DataLoader<number, number>((ids) => levelsOf(ctx, groupLevelsSql, ids)),
  };
}

type NamespaceLoaders = ReturnType<typeof namespaceLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends NamespaceLoaders {}
}
