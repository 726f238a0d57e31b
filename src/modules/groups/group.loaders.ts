import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PaginationMode, type Page } from '../../core/pagination/page';
import { sqlRows } from '../../core/db/sql';
import { groupMembershipRows, intArray } from '../access';
import { COUNT_LIMIT } from '../../core/pagination/page';
import { descendantGroupRows, groupsByIds, type Namespace } from '../namespaces';
import { PeekLoader } from '../../core/context/peek-loader';
import {
  projectFromRow,
  projectPagesByGroup,
  projectsInGroup,
  projectsOfNamespace,
  projectsSharedWithGroup,
  storageByNamespace,
  type GroupProjectRows,
  type NamespaceStorage,
  type Project,
  groupVisibility,
  projectVisibility,
} from '../projects';
import { listDescendantGroupsBatched, listGroups, listSubgroupsBatched } from './group-list.query';
import {
  NamespaceProjectSort,
  type DescendantGroupsArgs,
  type GroupProjectsPageArgs,
  type GroupsArgs,
} from './group.inputs';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { projectSearch } from '../projects';

export type GroupStatistics = NamespaceStorage;

/** Storage statistics summed over each group's projects, in SQL (spec 2.3). */
export const loadGroupStatistics = (ctx: RequestCtx, ids: readonly number[]): Promise<GroupStatistics[]> =>
  storageByNamespace(ctx.em, ids);

/** A group's project list, with the columns its selection needs (core/graphql/reads.ts). */
export interface GroupProjectsKey {
  groupId: number;
  /** SQL select list over `p` (`p.*` or named columns). */
  columns: string;
  /** At most this many per group (1..GROUP_DETAIL_PROJECTS). */
  limit: number;
}

/** Runs `query(columns, ids, limit)` once per distinct column list and limit; rows carry their group as `group_key`. */
async function projectListsByGroup(
  ctx: RequestCtx,
  keys: readonly GroupProjectsKey[],
  query: (columns: string, ids: number[], limit: number) => Promise<string>,
): Promise<Project[][]> {
  const byColumns = new Map<string, GroupProjectsKey[]>();
  for (const k of keys) {
    const variant = `${k.limit} ${k.columns}`;
    const same = byColumns.get(variant);
    if (same) same.push(k);
    else byColumns.set(variant, [k]);
  }
  const lists = new Map<GroupProjectsKey, Project[]>();
  for (const group of byColumns.values()) {
    const ids = group.map((k) => k.groupId);
    const rows = await sqlRows<Record<string, unknown>>(ctx.em, await query(group[0].columns, ids, group[0].limit));
    const byGroup = new Map<number, Project[]>();
    // The row mapper reads only the entity's columns, so the extra group_key needs no copy of the row.
    for (const row of rows) {
      const key = Number(row.group_key);
      const list = byGroup.get(key);
      const project = projectFromRow(ctx.em, row);
      if (list) list.push(project);
      else byGroup.set(key, [project]);
    }
    for (const k of group) lists.set(k, byGroup.get(k.groupId) ?? []);
  }
  return keys.map((k) => lists.get(k)!);
}

/**
 * At most this many projects in a group's `projects` and `shared_projects` (GraphQL `Group.projects`,
 * `Group.sharedProjects`, REST GET /groups/:id): GitLab 10.3 listed them all, which let one member
 * grow one answer without bound; later GitLab caps the detail form at 100 and points
 * to GET /groups/:id/projects for the rest (docs/gitlab-compatibility.md, "Groups").
 */
export const GROUP_DETAIL_PROJECTS = 100;

/** Per group (lateral, so each stops at the bound): the first projects by id the caller may see. */
async function perGroupProjects(
  ctx: RequestCtx,
  columns: string,
  ids: number[],
  limit: number,
  rows: GroupProjectRows,
): Promise<string> {
  return `select k.id as group_key, x.* from unnest(${intArray(ids)}) k(id) cross join lateral (
      select ${columns} from ${rows.from} where ${rows.where} and ${await projectVisibility(ctx, 'p')} order by p.id limit ${Math.min(Math.trunc(limit), GROUP_DETAIL_PROJECTS)}) x`;
}

/** The detail form's `projects`: projects in each group's namespace that the caller may see (docs/gitlab-compatibility.md, "Groups"). */
export function loadGroupProjects(ctx: RequestCtx, keys: readonly GroupProjectsKey[]): Promise<Project[][]> {
  return projectListsByGroup(ctx, keys, (columns, ids, limit) =>
    perGroupProjects(ctx, columns, ids, limit, projectsInGroup('k.id')),
  );
}

/** The detail form's `shared_projects`: projects shared with each group that the caller may see. */
export function loadGroupSharedProjects(ctx: RequestCtx, keys: readonly GroupProjectsKey[]): Promise<Project[][]> {
  return projectListsByGroup(ctx, keys, (columns, ids, limit) =>
    perGroupProjects(ctx, columns, ids, limit, projectsSharedWithGroup('k.id')),
  );
}

/** Custom attributes per group: administrators set them; reads stop at this many (by key). */

/**
 * `Group.subgroups(args)` for many parents: one query per distinct argument set (keyset pages, which
 * cut by cursor per parent, one per parent).
 */
async function subgroupPages(ctx: RequestCtx, args: GroupsArgs, ids: number[]): Promise<Map<number, Page<Namespace>>> {
  if (args.pagination !== PaginationMode.KEYSET) return listSubgroupsBatched(ctx, args, ids);
  const out = new Map<number, Page<Namespace>>();
  for (const id of ids) out.set(id, await listGroups(ctx, args, { parentId: id }));
  return out;
}

const PROJECT_SORT: Record<NamespaceProjectSort, { orderBy: string; dir: 'asc' | 'desc' }> = {
  ACTIVITY_DESC: { orderBy: 'p.last_activity_at', dir: 'desc' },
  STORAGE_SIZE_ASC: { orderBy: 'p.storage_size', dir: 'asc' },
  STORAGE_SIZE_DESC: { orderBy: 'p.storage_size', dir: 'desc' },
  REPOSITORY_SIZE_ASC: { orderBy: 'p.repository_size', dir: 'asc' },
  REPOSITORY_SIZE_DESC: { orderBy: 'p.repository_size', dir: 'desc' },
};

/** `Group.projects`' arguments and the columns its selection reads (a batch per distinct pair). */
export type GroupProjectPagesArgs = GroupProjectsPageArgs & { columns: string };

/**
 * `Group.projects` of many groups with the same arguments in one round trip (a bounded count and
 * a lateral page per group): the projects the caller may see in the group, or with includeSubgroups
 * in the group and its descendants (traversal_ids GIN), archived ones unless includeArchived: false.
 */
async function groupProjectPages(
  ctx: RequestCtx,
  args: GroupProjectPagesArgs,
  groupIds: number[],
): Promise<Map<number, Page<Project>>> {
  const where = [await projectVisibility(ctx, 'p')];
  const params: unknown[] = [];
  if (args.includeArchived === false) where.push('not p.archived');
  if (args.search) {
    const search = projectSearch('p', args.search);
    where.push(search.sql);
    params.push(...search.params);
  }
  const { orderBy, dir } = args.sort ? PROJECT_SORT[args.sort] : { orderBy: 'p.id', dir: 'asc' as const };
  return projectPagesByGroup(
    ctx.em,
    { columns: args.columns, where, params, orderBy, dir },
    !!args.includeSubgroups,
    groupIds,
    args,
  );
}

const projectsKey = (k: GroupProjectsKey) => `${k.groupId}:${k.limit}:${k.columns}`;

export type GroupCount = 'projects' | 'descendantGroups' | 'members';

/**
 * Per-group counts for dashboards, one statement per page and kind, each counted up
 * to COUNT_LIMIT + 1 rows like the lists (null above COUNT_LIMIT): the projects of the group the caller
 * may see, its visible descendant groups (traversal_ids GIN), its direct members.
 */
async function loadGroupCounts(ctx: RequestCtx, kind: GroupCount, ids: readonly number[]): Promise<(number | null)[]> {
  const inner =
    kind === 'projects'
      ? projectsOfNamespace('g.id', await projectVisibility(ctx, 'p'))
      : kind === 'descendantGroups'
        ? descendantGroupRows('g.id', await groupVisibility(ctx, 'd'))
        : groupMembershipRows('g.id');
  const rows = await sqlRows<{ id: number; n: string }>(
    ctx.em,
    `select g.id, (select count(*) from (${inner} limit ${COUNT_LIMIT + 1}) x) as n from unnest(${intArray(ids)}) as g(id)`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
  return ids.map((id) => {
    const n = byId.get(id) ?? 0;
    return n > COUNT_LIMIT ? null : n;
  });
}

/** Groups among `ids` the caller may see (GET /groups/:id would not be 404): one query per batch. */
async function loadVisibleGroups(ctx: RequestCtx, ids: readonly number[]): Promise<(Namespace | null)[]> {
  const groups = await groupsByIds(ctx.em, ids, await groupVisibility(ctx, 'g'));
  const byId = new Map(groups.map((g) => [g.id, g]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** Per-request batching: every nested field of a group list costs one query per page, not per row. */
export function groupLoaders(ctx: RequestCtx) {
  return {
    /** Groups by id that the caller may see (else null), as `group(id)` would answer: links to a group. */
    visibleGroup: new PeekLoader<number, Namespace | null>((ids) => loadVisibleGroups(ctx, ids)),
    groupStatistics: new DataLoader<number, GroupStatistics>((ids) => loadGroupStatistics(ctx, ids)),
    groupProjectsCount: new DataLoader<number, number | null>((ids) => loadGroupCounts(ctx, 'projects', ids)),
    groupDescendantGroupsCount: new DataLoader<number, number | null>((ids) =>
      loadGroupCounts(ctx, 'descendantGroups', ids),
    ),
    groupMembersCount: new DataLoader<number, number | null>((ids) => loadGroupCounts(ctx, 'members', ids)),
    groupProjects: new DataLoader<GroupProjectsKey, Project[], string>((keys) => loadGroupProjects(ctx, keys), {
      cacheKeyFn: projectsKey,
    }),
    groupSharedProjects: new DataLoader<GroupProjectsKey, Project[], string>(
      (keys) => loadGroupSharedProjects(ctx, keys),
      { cacheKeyFn: projectsKey },
    ),
    // Nested per-group lists: core's perParentPages batches the keys per distinct argument set.
    descendantGroups: perParentPages<DescendantGroupsArgs, Namespace>((args, ids) =>
      listDescendantGroupsBatched(ctx, args, ids),
    ),
    groupProjectPages: perParentPages<GroupProjectPagesArgs, Project>((args, ids) => groupProjectPages(ctx, args, ids)),
    subgroups: perParentPages<GroupsArgs, Namespace>((args, ids) => subgroupPages(ctx, args, ids)),
  };
}

type GroupLoaders = ReturnType<typeof groupLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupLoaders {}
}
