import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { intArray } from '../access/visibility-sql';
import { groupVisibility } from '../access/visibility';

export interface ProjectShareView {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccessLevel: number;
  expiresAt: string | null;
}

/**
 * At most this many groups in a project's `shared_with_groups` (issue 18, F2: owners can share one
 * project with any number of groups; GitLab 10.3 listed them all), the first shares made.
 */
export const PROJECT_SHARES_MAX = 100;

/** shared_with_groups of many projects in one query: only groups the caller may read (GET /groups/:id would not be 404). */
export async function loadProjectShares(ctx: RequestCtx, ids: readonly number[]): Promise<ProjectShareView[][]> {
  const rows = await sqlRows<{ project_id: number; group_id: number; name: string; full_path: string; group_access: number; expires_at: string | null }>(
    ctx.em,
    `select k.id as project_id, s.* from unnest(${intArray(ids)}) k(id) cross join lateral (
       select l.group_id, g.name, g.full_path, l.group_access, to_char(l.expires_at, 'YYYY-MM-DD') as expires_at
         from project_group_links l join namespaces g on g.id = l.group_id
        where l.project_id = k.id and ${await groupVisibility(ctx, 'g')} order by l.id limit ${PROJECT_SHARES_MAX}) s`,
  );
  const byProject = new Map<number, ProjectShareView[]>();
  for (const r of rows) {
    const list = byProject.get(r.project_id) ?? [];
    list.push({ groupId: r.group_id, groupName: r.name, groupFullPath: r.full_path, groupAccessLevel: r.group_access, expiresAt: r.expires_at });
    byProject.set(r.project_id, list);
  }
  return ids.map((id) => byProject.get(id) ?? []);
}

export function projectLoaders(ctx: RequestCtx) {
  return { projectShares: new PeekLoader<number, ProjectShareView[]>((ids) => loadProjectShares(ctx, ids)) };
}

type ProjectLoaders = ReturnType<typeof projectLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectLoaders {}
}
