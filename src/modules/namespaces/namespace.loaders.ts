import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Namespace } from './namespace.entity';

function byId<T extends { id: number }>(ids: readonly number[], items: T[]): (T | null)[] {
  const map = new Map(items.map((i) => [i.id, i]));
  return ids.map((id) => map.get(id) ?? null);
}

/** Namespaces by id (a project's namespace, a group's parent): one query per batch. */
export function namespaceLoaders(ctx: RequestCtx) {
  return {
    namespace: new DataLoader<number, Namespace | null>(async (ids) => byId(ids, await ctx.em.find(Namespace, { id: { $in: [...ids] } }))),
  };
}

type NamespaceLoaders = ReturnType<typeof namespaceLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends NamespaceLoaders {}
}
