import type { EntityManager } from '@mikro-orm/postgresql';
import type { GraphQLResolveInfo } from 'graphql';
import { lightEntitiesById, lightEntity, sqlRows } from '../../core/db/sql';
import { selectedColumns, selectedPageColumns } from '../../core/graphql/reads';
import { activeMembership, groupMembershipsOf, intArray, projectMembershipsOf } from '../access';
import {
  ancestryOf,
  descendantIds,
  joinNamespace,
  namespaceFromRow,
  ownedNamespaceIds,
  subtreeIds,
  type Namespace,
} from '../namespaces';
import { Project } from './project.entity';

// The projects table for other modules' statements and batches (docs/architecture.md, "Tables"):
// they join a row's project with `joinProject` (its visibility: `projectVisibility` on the alias) and
// map project rows with `projectFromRow`.

/** Joins the project that `projectId` (a column of the caller's row) names, as `as`. */
export const joinProject = (projectId: string, as = 'p') => `join projects ${as} on ${as}.id = ${projectId}`;

/** A read-only Project from a row carrying the projects columns: not in the identity map. */
export const projectFromRow = (em: EntityManager, row: Record<string, unknown>): Project =>
  lightEntity(em, Project, row);

/** Read-only projects by id, in one statement (missing ids are left out). */
export const projectsById = (em: EntityManager, ids: readonly number[]): Promise<Project[]> =>
  lightEntitiesById(em, Project, ids);

/** Managed projects by id, in one statement (missing ids are left out). */
export const findProjects = (em: EntityManager, ids: readonly number[]): Promise<Project[]> =>
  em.find(Project, { id: { $in: [...ids] } });

/** The select list of a projects alias that a nested list's GraphQL selection reads (docs/architecture.md, "Performance notes"). */
export const projectColumns = (em: EntityManager, info: GraphQLResolveInfo, alias: string): string =>
  selectedColumns(em, Project, info, alias);

/** The same for a projects connection (its `nodes` and `edges { node }`). */
export const projectPageColumns = (em: EntityManager, info: GraphQLResolveInfo, alias: string): string =>
  selectedPageColumns(em, Project, info, alias);

/** Projects by id with their namespaces, in one statement (a job shows `name_with_namespace`). */
export async function projectsWithNamespaces(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, { project: Project; namespace: Namespace | null }>> {
  const rows = await sqlRows<Record<string, unknown> & { id: number; ns: Record<string, unknown> | null }>(
    em,
    `select p.*, to_jsonb(n) as ns from projects p left ${joinNamespace('p.namespace_id')} where p.id = any(${intArray(ids)})`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { project: projectFromRow(em, r), namespace: r.ns ? namespaceFromRow(em, r.ns) : null },
    ]),
  );
}

/** Predicate: the project that `projectId` names satisfies `predicate` (written on the alias `as`). */
export const projectMatches = (projectId: string, as: string, predicate: string) =>
  `exists (select 1 from projects ${as} where ${as}.id = ${projectId} and ${predicate})`;

/**
 * A select of the ids of the projects where the user's access is `minLevel` or above (GitLab's
 * `authorized_projects(min_access_level)`): project membership, group membership here or in an
 * ancestor group, a share of the project with such a group (the share's access must reach the level
 * too: GitLab keeps the lower of the two), or their personal namespace.
 */
export function projectIdsWithLevel(userId: number, minLevel: number): string {
  return `with mg as (select coalesce(array_agg(gm.group_id), '{}') as ids from ${groupMembershipsOf(userId, minLevel)}),
    tree as (${subtreeIds('(select ids from mg)')}),
    mp as (select pm.project_id as id from ${projectMembershipsOf(userId, minLevel)}
      union select p.id from projects p where p.namespace_id = any(array(select id from tree))
      union select pl.project_id from project_group_links pl
        where pl.group_id = any(array(select id from tree)) and pl.group_access >= ${minLevel} and ${activeMembership('pl')}
      union select p.id from projects p where p.namespace_id = any(array(${ownedNamespaceIds(String(userId))})))
    select id from mp`;
}

/**
 * A row source: each project's `id` and `namespace_id` with its namespace's ancestry (`namespace_kind`,
 * `traversal_ids`) as `as`, for per-project lists keyed by `as.id`.
 */
export const projectAncestryRows = (as: string) =>
  `(select p.id, p.namespace_id, n.kind as namespace_kind, n.traversal_ids from projects p ${joinNamespace('p.namespace_id')}) ${as}`;

/**
 * Rows `group_id, access_cap`: the groups the project `projectId` names is shared with (active shares)
 * and their ancestors (GitLab's `project.invited_groups.self_and_ancestors`), each with the share's
 * access: whose members GitLab's INVITED_GROUPS lists, at most at that level. Through the
 * `project_group_links_uniq (project_id, group_id)` index.
 */
export const projectInvitedGroupRows = (projectId: string) =>
  `select a.group_id, l.group_access as access_cap from project_group_links l
     cross join lateral unnest(${ancestryOf('l.group_id')}) a(group_id)
    where l.project_id = ${projectId} and ${activeMembership('l')}`;

/**
 * A select of the ids of the groups the project `projectId` names is shared with, through a share at
 * `minAccess` or above (expired shares too, as `sharedWithGroups` lists them): GitLab's
 * `project.invited_groups`, through the `project_group_links_uniq (project_id, group_id)` index.
 */
export const projectShareGroupIds = (projectId: string, minAccess = 0) =>
  `select l.group_id from project_group_links l where l.project_id = ${projectId} and l.group_access >= ${Math.trunc(minAccess)}`;

/** Scalar subquery: the highest visibility level among the projects of the namespace `namespaceId` names. */
export const maxProjectVisibilityIn = (namespaceId: string) =>
  `(select max(visibility_level) from projects where namespace_id = ${namespaceId})`;

/** Whether a project of the namespace already has this path or name (case-insensitive): a transfer would clash. */
export async function projectPathOrNameTakenIn(
  em: EntityManager,
  namespaceId: number,
  path: string,
  name: string,
): Promise<boolean> {
  const [clash] = await sqlRows<{ n: string }>(
    em,
    'select count(*) as n from projects where namespace_id = ? and (lower(path) = lower(?) or lower(name) = lower(?))',
    [namespaceId, path, name],
  );
  return Number(clash.n) > 0;
}

/** A group moved under a more private parent: the projects of its subtree more visible than `level` take it (GitLab's transfer). */
export async function capProjectVisibilityUnder(em: EntityManager, groupId: number, level: number): Promise<void> {
  await sqlRows(
    em,
    `update projects set visibility_level = ?
      where namespace_id = any(${descendantIds('?')}) and visibility_level > ?`,
    [level, groupId, level],
  );
}

/** Whether a project of the namespace has this path (case-insensitive): a group moving in with that path would clash. */
export async function projectPathTakenIn(em: EntityManager, namespaceId: number, path: string): Promise<boolean> {
  const [clash] = await sqlRows<{ n: string }>(
    em,
    'select count(*) as n from projects where namespace_id = ? and lower(path) = lower(?)',
    [namespaceId, path],
  );
  return Number(clash.n) > 0;
}

/** A select of one row per project of the namespace `namespaceId` names that satisfies `predicate` (on `p`), for counts. */
export const projectsOfNamespace = (namespaceId: string, predicate: string) =>
  `select 1 from projects p where p.namespace_id = ${namespaceId} and ${predicate}`;
