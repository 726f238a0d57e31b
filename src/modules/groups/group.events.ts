import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import type { SystemEvent } from '../../core/events/system-events';
import { HUMAN_ACCESS } from '../access';
import { subtreeDeepestFirst } from '../namespaces';

/** The groups' system hook payloads (GitLab 10.3's SystemHooksService for a Group). */

type GroupRow = {
  id: number;
  name: string;
  path: string;
  full_path: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** group_create, group_destroy, group_rename (with old_path, old_full_path). Groups have no owner in the payload (null, as GitLab's docs show). */
export function groupEvent(
  g: GroupRow | { id: number; name: string; path: string; fullPath: string; createdAt: Date; updatedAt: Date },
  event: 'create' | 'destroy' | 'rename',
  old?: { path: string; fullPath: string },
): SystemEvent {
  const r =
    'fullPath' in g
      ? g
      : { ...g, fullPath: g.full_path, createdAt: pgTime(g.created_at), updatedAt: pgTime(g.updated_at) };
  return {
    name: `group_${event}`,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    data: {
      name: r.name,
      path: r.path,
      full_path: r.fullPath,
      group_id: r.id,
      owner_name: null,
      owner_email: null,
      ...(old ? { old_path: old.path, old_full_path: old.fullPath } : {}),
    },
  };
}

/** Every group of a subtree (the group and its descendants), deepest first, for group_destroy. */
export async function subtreeGroupEvents(em: EntityManager, groupId: number): Promise<SystemEvent[]> {
  const rows = await subtreeDeepestFirst(em, groupId);
  return rows.map((g) => groupEvent(g, 'destroy'));
}

/** user_add_to_group from rows the write already holds (no read back): the group's creator as its Owner. */
export function groupMemberAdded(
  group: { id: number; name: string; path: string },
  user: { id: number; name: string; username: string; email: string },
  accessLevel: number,
  at: Date,
): SystemEvent {
  return {
    name: 'user_add_to_group',
    createdAt: at,
    updatedAt: at,
    data: {
      group_name: group.name,
      group_path: group.path,
      group_id: group.id,
      user_username: user.username,
      user_name: user.name,
      user_email: user.email,
      user_id: user.id,
      group_access: HUMAN_ACCESS[accessLevel] ?? String(accessLevel),
    },
  };
}
