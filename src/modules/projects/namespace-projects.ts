import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';
import { offsetPagesByKey, type ListQuery, type PageInput, type PageKey } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { intArray } from '../access';
import { descendantIds } from '../namespaces';
import type { Project } from './project.entity';
import { projectFromRow } from './project-sql';

// The projects of groups, for the groups module's fields and lists (docs/architecture.md, "Tables"):
// which projects a group holds or has been shared, and their sizes.

/** The projects a list of per-group rows reads, as `p`, and the predicate tying them to the group `groupId` names. */
export interface GroupProjectRows {
  from: string;
  where: string;
}

/** The projects in the group's namespace. */
export const projectsInGroup = (groupId: string): GroupProjectRows => ({
  from: 'projects p',
  where: `p.namespace_id = ${groupId}`,
});

/** The projects shared with the group (project_group_links). */
export const projectsSharedWithGroup = (groupId: string): GroupProjectRows => ({
  from: 'project_group_links l join projects p on p.id = l.project_id',
  where: `l.group_id = ${groupId}`,
});

/**
 * Pages of the projects of many groups (one bounded count and one page statement): in each group, or
 * with `includeSubgroups` in the group and its descendants (traversal_ids GIN). `q` filters and orders `p`
 * and names the columns of `p` to read (`p.*` or those the selection needs: project-sql.ts `projectPageColumns`).
 */
export function projectPagesByGroup(
  em: EntityManager,
  q: ProjectPageQuery,
  includeSubgroups: boolean,
  groupIds: number[],
  args: PageInput,
): Promise<Map<number, Page<Project>>> {
  const key = includeSubgroups ? { match: `p.namespace_id = any(${descendantIds('page_keys.k')})` } : 'p.namespace_id';
  return projectPagesByKey(em, q, key, groupIds, args);
}

/** What a page of projects reads (`p`): its columns, filters, order. */
export interface ProjectPageQuery {
  columns: string;
  where: string[];
  params: unknown[];
  orderBy: string;
  dir: 'asc' | 'desc';
}

/**
 * Pages of projects for many keys at once, `key` tying a project `p` to the key `page_keys.k`: another
 * module's link (a runner's projects: `p.id in (select … where runner_id = page_keys.k)`).
 */
export function projectPagesByKey(
  em: EntityManager,
  q: ProjectPageQuery,
  key: PageKey,
  keys: readonly number[],
  args: PageInput,
): Promise<Map<number, Page<Project>>> {
  const { columns, ...filter } = q;
  const query: ListQuery<Project> = {
    select: columns,
    from: 'projects p',
    ...filter,
    id: 'p.id',
    map: (r) => projectFromRow(em, r),
  };
  return offsetPagesByKey(em, query, key, keys, args);
}

export interface NamespaceStorage {
  storageSize: number;
  repositorySize: number;
  lfsObjectsSize: number;
  jobArtifactsSize: number;
}

/** Storage statistics summed over each namespace's projects, in SQL (zero without projects). */
export async function storageByNamespace(em: EntityManager, ids: readonly number[]): Promise<NamespaceStorage[]> {
  const rows = await sqlRows<Record<string, string | number>>(
    em,
    `select g.id, coalesce(sum(p.storage_size), 0) as s, coalesce(sum(p.repository_size), 0) as r,
            coalesce(sum(p.lfs_objects_size), 0) as l, coalesce(sum(p.job_artifacts_size), 0) as j
       from unnest(${intArray(ids)}) g(id) left join projects p on p.namespace_id = g.id
      group by g.id`,
  );
  const map = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => {
    const r = map.get(id);
    return {
      storageSize: Number(r?.s ?? 0),
      repositorySize: Number(r?.r ?? 0),
      lfsObjectsSize: Number(r?.l ?? 0),
      jobArtifactsSize: Number(r?.j ?? 0),
    };
  });
}
