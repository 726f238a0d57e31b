import DataLoader from 'dataloader';
import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, sqlRows } from '../../core/db/sql';
import { groupVisibility, projectLevelsSql, projectVisibility } from './project-visibility';
import { intArray, joinUserGroupMembership, joinUserProjectMembership } from '../access';
import { joinUser, userFromRow, type User } from '../users';
import { joinNamespace, levelsOf, personalNamespaceOwners } from '../namespaces';
import { Project } from './project.entity';

export interface ProjectShareView {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccessLevel: number;
  expiresAt: string | null;
}

/**
 * At most this many groups in a project's `shared_with_groups`, the first shares made: an unpaged
 * list is served up to a declared bound (owners can share one project with any number of groups;
 * GitLab 10.3 listed them all).
 */
export const PROJECT_SHARES_MAX = 100;

/** shared_with_groups of many projects in one query: only groups the caller may read (GET /groups/:id would not be 404). */
export async function loadProjectShares(ctx: RequestCtx, ids: readonly number[]): Promise<ProjectShareView[][]> {
  const rows = await sqlRows<{
    project_id: number;
    group_id: number;
    name: string;
    full_path: string;
    group_access: number;
    expires_at: string | null;
  }>(
    ctx.em,
    `select k.id as project_id, s.* from unnest(${intArray(ids)}) k(id) cross join lateral (
       select l.group_id, g.name, g.full_path, l.group_access, to_char(l.expires_at, 'YYYY-MM-DD') as expires_at
         from project_group_links l ${joinNamespace('l.group_id', 'g')}
        where l.project_id = k.id and ${await groupVisibility(ctx, 'g')} order by l.id limit ${PROJECT_SHARES_MAX}) s`,
  );
  const byProject = new Map<number, ProjectShareView[]>();
  for (const r of rows) {
    const list = byProject.get(r.project_id) ?? [];
    list.push({
      groupId: r.group_id,
      groupName: r.name,
      groupFullPath: r.full_path,
      groupAccessLevel: r.group_access,
      expiresAt: r.expires_at,
    });
    byProject.set(r.project_id, list);
  }
  return ids.map((id) => byProject.get(id) ?? []);
}

/** The owner of each personal namespace (a project's `owner`), by namespace id; null for groups. One query per batch. */
async function loadNamespaceOwners(ctx: RequestCtx, namespaceIds: readonly number[]): Promise<(User | null)[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select o.owned_namespace_id, u.* from (${personalNamespaceOwners(intArray(namespaceIds))}) o ${joinUser('o.owner_id')}`,
  );
  const byNamespace = new Map<number, User>();
  for (const { owned_namespace_id: ns, ...user } of rows) byNamespace.set(Number(ns), userFromRow(ctx.em, user));
  return namespaceIds.map((id) => byNamespace.get(id) ?? null);
}

/** Fork sources and linked projects by id, only those the caller may see (else null). One query per batch. */
async function loadVisibleProjects(ctx: RequestCtx, ids: readonly number[]): Promise<(Project | null)[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select p.* from projects p where p.id = any(${intArray(ids)}) and ${await projectVisibility(ctx, 'p')}`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), lightEntity(ctx.em, Project, r)]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface MemberAccessView {
  accessLevel: number;
  notificationLevel: number | null;
}
export interface ProjectPermissionsView {
  projectAccess: MemberAccessView | null;
  groupAccess: MemberAccessView | null;
}

/** GitLab's NotificationSetting level `global` (3): what a membership shows while no setting is stored (none is, here). */
const NOTIFICATION_GLOBAL = 3;
const access = (level: number | null): MemberAccessView | null =>
  level == null ? null : { accessLevel: Number(level), notificationLevel: NOTIFICATION_GLOBAL };

/**
 * GitLab 10.3's ProjectWithAccess `permissions` of many projects in one query: the caller's own
 * membership of each project and of the project's namespace group (not inherited, not shared: 10.3
 * matches `member.source_id` against the project and its `namespace_id`).
 */
async function loadPermissions(ctx: RequestCtx, ids: readonly number[]): Promise<ProjectPermissionsView[]> {
  const uid = ctx.user ? Number(ctx.user.id) : 0;
  const rows = await sqlRows<{ id: number; pa: number | null; ga: number | null }>(
    ctx.em,
    `select pr.id, pm.access_level as pa, gm.access_level as ga from unnest(${intArray(ids)}) k(id) join projects pr on pr.id = k.id
       left ${joinUserProjectMembership('pr.id', uid)}
       left ${joinUserGroupMembership('pr.namespace_id', uid)}`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), { projectAccess: access(r.pa), groupAccess: access(r.ga) }]));
  return ids.map((id) => byId.get(id) ?? { projectAccess: null, groupAccess: null });
}

export function projectLoaders(ctx: RequestCtx) {
  return {
    /** The caller's effective access level per project: one query per batch. */
    projectLevel: new DataLoader<number, number>((ids) => levelsOf(ctx, projectLevelsSql, ids)),
    projectShares: new PeekLoader<number, ProjectShareView[]>((ids) => loadProjectShares(ctx, ids)),
    namespaceOwner: new PeekLoader<number, User | null>((ids) => loadNamespaceOwners(ctx, ids)),
    /** Projects by id that the caller may see (else null), as `project(id)` would answer: links to a project (fork sources too). */
    visibleProject: new PeekLoader<number, Project | null>((ids) => loadVisibleProjects(ctx, ids)),
    projectPermissions: new PeekLoader<number, ProjectPermissionsView>((ids) => loadPermissions(ctx, ids)),
  };
}

type ProjectLoaders = ReturnType<typeof projectLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectLoaders {}
}
