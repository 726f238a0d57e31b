import DataLoader from 'dataloader';
import { groupLevelsSql, projectLevelsSql } from '../../modules/access/visibility-sql';
import { Namespace } from '../../modules/groups/namespace.entity';
import { loadGroupCustomAttributes, loadGroupProjects, loadGroupSharedProjects, loadGroupStatistics, type GroupStatistics, type KeyValue } from '../../modules/groups/group.loaders';
import type { Project } from '../../modules/projects/project.entity';
import { loadProjectShares, type ProjectShareView } from '../../modules/projects/project.loaders';
import { listGroups, listSubgroupsBatched } from '../../modules/groups/group-list.query';
import { PaginationMode, type GroupsArgs } from '../../modules/groups/group.inputs';
import type { Page } from '../pagination/page';
import { sqlRows } from '../db/sql';
import type { RequestCtx } from './request-ctx';

/** Per-request batching: every nested field of a list costs one query per page, not per row. */
export interface Loaders {
  namespace: DataLoader<number, Namespace | null>;
  groupLevel: DataLoader<number, number>;
  projectLevel: DataLoader<number, number>;
  projectShares: DataLoader<number, ProjectShareView[]>;
  groupStatistics: DataLoader<number, GroupStatistics>;
  groupProjects: DataLoader<number, Project[]>;
  groupSharedProjects: DataLoader<number, Project[]>;
  groupCustomAttributes: DataLoader<number, KeyValue[]>;
  /** `Group.subgroups(args)` for many parents: one query per distinct argument set. */
  subgroups: DataLoader<SubgroupsKey, Page<Namespace>, string>;
}

export interface SubgroupsKey {
  parentId: number;
  args: GroupsArgs;
}

async function loadSubgroups(ctx: RequestCtx, keys: readonly SubgroupsKey[]): Promise<Page<Namespace>[]> {
  const byArgs = new Map<string, SubgroupsKey[]>();
  for (const k of keys) {
    const a = JSON.stringify(k.args);
    byArgs.set(a, [...(byArgs.get(a) ?? []), k]);
  }
  const result = new Map<SubgroupsKey, Page<Namespace>>();
  for (const group of byArgs.values()) {
    const args = group[0].args;
    if (args.pagination === PaginationMode.KEYSET) {
      for (const k of group) result.set(k, await listGroups(ctx, args, { parentId: k.parentId }));
      continue;
    }
    const pages = await listSubgroupsBatched(ctx, args, group.map((k) => k.parentId));
    group.forEach((k, i) => result.set(k, pages[i]));
  }
  return keys.map((k) => result.get(k)!);
}

function byId<T extends { id: number }>(ids: readonly number[], items: T[]): (T | null)[] {
  const map = new Map(items.map((i) => [i.id, i]));
  return ids.map((id) => map.get(id) ?? null);
}

async function levels(ctx: RequestCtx, sql: (ids: readonly number[]) => string, ids: readonly number[]): Promise<number[]> {
  if (!ctx.user) return ids.map(() => 0);
  const rows = await sqlRows<{ id: number; level: number }>(ctx.em, sql(ids));
  const map = new Map(rows.map((r) => [Number(r.id), Number(r.level)]));
  return ids.map((id) => map.get(id) ?? 0);
}

export function createLoaders(ctx: RequestCtx): Loaders {
  return {
    namespace: new DataLoader(async (ids) => byId(ids, await ctx.em.find(Namespace, { id: { $in: [...ids] } }))),
    groupLevel: new DataLoader((ids) => levels(ctx, (x) => groupLevelsSql(ctx.user!, x), ids)),
    projectLevel: new DataLoader((ids) => levels(ctx, (x) => projectLevelsSql(ctx.user!, x), ids)),
    projectShares: new DataLoader((ids) => loadProjectShares(ctx, ids)),
    groupStatistics: new DataLoader((ids) => loadGroupStatistics(ctx, ids)),
    groupProjects: new DataLoader((ids) => loadGroupProjects(ctx, ids)),
    groupSharedProjects: new DataLoader((ids) => loadGroupSharedProjects(ctx, ids)),
    groupCustomAttributes: new DataLoader((ids) => loadGroupCustomAttributes(ctx, ids)),
    subgroups: new DataLoader((keys) => loadSubgroups(ctx, keys), { cacheKeyFn: (k) => `${k.parentId}:${JSON.stringify(k.args)}` }),
  };
}
