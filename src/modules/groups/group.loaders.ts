import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { intArray } from '../access/visibility-sql';
import { projectVisibility } from '../access/visibility';
import type { Namespace } from '../namespaces/namespace.entity';
import { Project } from '../projects/project.entity';
import { listGroups, listSubgroupsBatched } from './group-list.query';
import { PaginationMode, type GroupsArgs } from './group.inputs';

export interface GroupStatistics {
  storageSize: number;
  repositorySize: number;
  lfsObjectsSize: number;
  jobArtifactsSize: number;
}

export interface KeyValue {
  key: string;
  value: string;
}

function groupBy<T>(ids: readonly number[], rows: { key: number; item: T }[]): T[][] {
  const map = new Map<number, T[]>();
  for (const r of rows) {
    const l = map.get(r.key) ?? [];
    l.push(r.item);
    map.set(r.key, l);
  }
  return ids.map((id) => map.get(id) ?? []);
}

/** Storage statistics summed over each group's projects, in SQL (spec 2.3). */
export async function loadGroupStatistics(ctx: RequestCtx, ids: readonly number[]): Promise<GroupStatistics[]> {
  const rows = await sqlRows<Record<string, string | number>>(
    ctx.em,
    `select g.id, coalesce(sum(p.storage_size), 0) as s, coalesce(sum(p.repository_size), 0) as r,
            coalesce(sum(p.lfs_objects_size), 0) as l, coalesce(sum(p.job_artifacts_size), 0) as j
       from namespaces g left join projects p on p.namespace_id = g.id
      where g.id = any(${intArray(ids)}) group by g.id`,
  );
  const map = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => {
    const r = map.get(id);
    return { storageSize: Number(r?.s ?? 0), repositorySize: Number(r?.r ?? 0), lfsObjectsSize: Number(r?.l ?? 0), jobArtifactsSize: Number(r?.j ?? 0) };
  });
}

/** A group's project list, with the columns its selection needs (core/graphql/reads.ts). */
export interface GroupProjectsKey {
  groupId: number;
  /** SQL select list over `p` (`p.*` or named columns). */
  columns: string;
}

/** Runs `query(columns, ids)` once per distinct column list; rows carry their group as `group_key`. */
async function projectListsByGroup(ctx: RequestCtx, keys: readonly GroupProjectsKey[], query: (columns: string, ids: number[]) => Promise<string>): Promise<Project[][]> {
  const byColumns = new Map<string, GroupProjectsKey[]>();
  for (const k of keys) {
    const same = byColumns.get(k.columns);
    if (same) same.push(k);
    else byColumns.set(k.columns, [k]);
  }
  const lists = new Map<GroupProjectsKey, Project[]>();
  for (const [columns, group] of byColumns) {
    const ids = group.map((k) => k.groupId);
    const rows = await sqlRows<Record<string, unknown>>(ctx.em, await query(columns, ids));
    const byGroup = new Map<number, Project[]>();
    // The row mapper reads only the entity's columns, so the extra group_key needs no copy of the row.
    for (const row of rows) {
      const key = Number(row.group_key);
      const list = byGroup.get(key);
      const project = lightEntity(ctx.em, Project, row);
      if (list) list.push(project);
      else byGroup.set(key, [project]);
    }
    for (const k of group) lists.set(k, byGroup.get(k.groupId) ?? []);
  }
  return keys.map((k) => lists.get(k)!);
}

/** The detail form's `projects`: projects in each group's namespace that the caller may see (docs/gitlab-compatibility.md, "Groups"). */
export function loadGroupProjects(ctx: RequestCtx, keys: readonly GroupProjectsKey[]): Promise<Project[][]> {
  return projectListsByGroup(ctx, keys, async (columns, ids) =>
    `select p.namespace_id as group_key, ${columns} from projects p
      where p.namespace_id = any(${intArray(ids)}) and ${await projectVisibility(ctx, 'p')} order by p.id`);
}

/** The detail form's `shared_projects`: projects shared with each group that the caller may see. */
export function loadGroupSharedProjects(ctx: RequestCtx, keys: readonly GroupProjectsKey[]): Promise<Project[][]> {
  return projectListsByGroup(ctx, keys, async (columns, ids) =>
    `select l.group_id as group_key, ${columns} from project_group_links l join projects p on p.id = l.project_id
      where l.group_id = any(${intArray(ids)}) and ${await projectVisibility(ctx, 'p')} order by p.id`);
}

export async function loadGroupCustomAttributes(ctx: RequestCtx, ids: readonly number[]): Promise<KeyValue[][]> {
  const rows = await sqlRows<{ group_id: number; key: string; value: string }>(
    ctx.em,
    `select group_id, key, value from group_custom_attributes where group_id = any(${intArray(ids)}) order by key`,
  );
  return groupBy(ids, rows.map((r) => ({ key: r.group_id, item: { key: r.key, value: r.value } })));
}

export interface SubgroupsKey {
  parentId: number;
  args: GroupsArgs;
}

/** `Group.subgroups(args)` for many parents: one query per distinct argument set. */
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

const projectsKey = (k: GroupProjectsKey) => `${k.groupId}:${k.columns}`;

/** Per-request batching: every nested field of a group list costs one query per page, not per row. */
export function groupLoaders(ctx: RequestCtx) {
  return {
    groupStatistics: new DataLoader<number, GroupStatistics>((ids) => loadGroupStatistics(ctx, ids)),
    groupProjects: new DataLoader<GroupProjectsKey, Project[], string>((keys) => loadGroupProjects(ctx, keys), { cacheKeyFn: projectsKey }),
    groupSharedProjects: new DataLoader<GroupProjectsKey, Project[], string>((keys) => loadGroupSharedProjects(ctx, keys), { cacheKeyFn: projectsKey }),
    groupCustomAttributes: new DataLoader<number, KeyValue[]>((ids) => loadGroupCustomAttributes(ctx, ids)),
    subgroups: new DataLoader<SubgroupsKey, Page<Namespace>, string>((keys) => loadSubgroups(ctx, keys), {
      cacheKeyFn: (k) => `${k.parentId}:${JSON.stringify(k.args)}`,
    }),
  };
}

type GroupLoaders = ReturnType<typeof groupLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupLoaders {}
}
