import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import { sqlRows } from '../../core/db/sql';
import type { SystemEvent } from '../../core/events/system-events';
import { projectsInNamespacesEvents } from '../../core/events/system-event-catalogue';
import { VISIBILITY_NAME } from '../access';
import { joinNamespace } from '../namespaces';
import { joinUser } from '../users';

/**
 * The projects' system hook payloads (GitLab 10.3's SystemHooksService for a Project), built from the
 * rows inside the write's transaction; modules emit them through `emitSystemEvents`
 * (core/events/system-events.ts), which skips them without hooks.
 */

type ProjectRow = {
  id: number;
  name: string;
  path: string;
  full_path: string;
  visibility_level: number;
  created_at: Date | string;
  updated_at: Date | string;
  owner_name: string | null;
  owner_email: string | null;
};

/** A project and its owner: the namespace's user, or the group (whose name is shown and which has no e-mail). */
const PROJECT_SQL = `
  select p.id, p.name, p.path, n.full_path || '/' || p.path as full_path, p.visibility_level, p.created_at, p.updated_at,
         case when n.kind = 'user' then u.name else n.name end as owner_name,
         case when n.kind = 'user' then u.email else '' end as owner_email
    from projects p ${joinNamespace('p.namespace_id')} left ${joinUser('n.owner_id')} and n.kind = 'user'`;

/** project_create, project_destroy, project_rename, project_transfer (the last two with old_path_with_namespace). */
export async function projectEvents(
  em: EntityManager,
  projectIds: readonly number[],
  event: 'create' | 'destroy' | 'rename' | 'transfer',
  oldFullPath?: string,
): Promise<SystemEvent[]> {
  if (projectIds.length === 0) return [];
  const rows = await sqlRows<ProjectRow>(em, `${PROJECT_SQL} where p.id = any(?::int[]) order by p.id`, [
    `{${projectIds.join(',')}}`,
  ]);
  return rows.map((p) => ({
    name: `project_${event}`,
    createdAt: pgTime(p.created_at),
    updatedAt: pgTime(p.updated_at),
    data: {
      name: p.name,
      path: p.path,
      path_with_namespace: p.full_path,
      project_id: p.id,
      owner_name: p.owner_name ?? '',
      owner_email: p.owner_email ?? '',
      project_visibility: VISIBILITY_NAME[p.visibility_level] ?? 'private',
      ...(oldFullPath !== undefined ? { old_path_with_namespace: oldFullPath } : {}),
    },
  }));
}

/** The projects of a group's subtree, for project_destroy ahead of group_destroy (GitLab destroys them one by one). */
export async function subtreeProjectIds(em: EntityManager, groupId: number): Promise<number[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    `select p.id from projects p ${joinNamespace('p.namespace_id')} where n.traversal_ids @> array[?]::int[] order by p.id`,
    [groupId],
  );
  return rows.map((r) => r.id);
}

/** project_destroy for every project in these namespaces (a user's removal: its personal projects), in id order. */
async function projectsInNamespaces(
  em: EntityManager,
  namespaceIds: readonly number[],
  event: 'destroy',
): Promise<SystemEvent[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    'select p.id from projects p where p.namespace_id = any(?::int[]) order by p.id',
    [`{${namespaceIds.join(',')}}`],
  );
  return projectEvents(
    em,
    rows.map((r) => r.id),
    event,
  );
}

projectsInNamespacesEvents.provide(projectsInNamespaces);
