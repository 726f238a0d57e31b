import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { groupLevelsSql, projectLevelsSql } from './visibility-sql';

async function levels(
  ctx: RequestCtx,
  sql: (ids: readonly number[]) => string,
  ids: readonly number[],
): Promise<number[]> {
  if (!ctx.user) return ids.map(() => 0);
  const rows = await sqlRows<{ id: number; level: number }>(ctx.em, sql(ids));
  const map = new Map(rows.map((r) => [Number(r.id), Number(r.level)]));
  return ids.map((id) => map.get(id) ?? 0);
}

/** The caller's effective access level per group and per project: one query per batch. */
export function accessLoaders(ctx: RequestCtx) {
  return {
    groupLevel: new DataLoader<number, number>((ids) => levels(ctx, (x) => groupLevelsSql(ctx.user!, x), ids)),
    projectLevel: new DataLoader<number, number>((ids) => levels(ctx, (x) => projectLevelsSql(ctx.user!, x), ids)),
  };
}

type AccessLoaders = ReturnType<typeof accessLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends AccessLoaders {}
}
