import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import { sqlRows } from '../../core/db/sql';
import type { SystemEvent } from '../../core/events/system-events';

/**
 * The payloads of GitLab 10.3's system hooks for the platform's objects (GitLab's SystemHooksService;
 * "System hooks" in GitLab's docs), built from the rows inside the write's transaction. Modules call
 * these through `emitSystemEvents` (core/events/system-events.ts), which skips them without hooks.
 */

/** GitLab's human access names (Member#human_access). */
const HUMAN_ACCESS: Record<number, string> = {
  10: 'Guest',
  20: 'Reporter',
  30: 'Developer',
  40: 'Master',
  50: 'Owner',
};
const VISIBILITY: Record<number, string> = { 0: 'private', 10: 'internal', 20: 'public' };

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
    from projects p join namespaces n on n.id = p.namespace_id left join users u on n.kind = 'user' and u.id = n.owner_id`;

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
      project_visibility: VISIBILITY[p.visibility_level] ?? 'private',
      ...(oldFullPath !== undefined ? { old_path_with_namespace: oldFullPath } : {}),
    },
  }));
}

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
  const rows = await sqlRows<GroupRow>(
    em,
    `select id, name, path, full_path, created_at, updated_at from namespaces where traversal_ids @> array[?]::int[] order by cardinality(traversal_ids) desc, id`,
    [groupId],
  );
  return rows.map((g) => groupEvent(g, 'destroy'));
}

/** The projects of a group's subtree, for project_destroy ahead of group_destroy (GitLab destroys them one by one). */
export async function subtreeProjectIds(em: EntityManager, groupId: number): Promise<number[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    `select p.id from projects p join namespaces n on n.id = p.namespace_id where n.traversal_ids @> array[?]::int[] order by p.id`,
    [groupId],
  );
  return rows.map((r) => r.id);
}

/** A user's personal projects, for project_destroy ahead of user_destroy. */
export async function personalProjectIds(em: EntityManager, userId: number): Promise<number[]> {
  const rows = await sqlRows<{ id: number }>(
    em,
    `select p.id from projects p join namespaces n on n.id = p.namespace_id where n.kind = 'user' and n.owner_id = ? order by p.id`,
    [userId],
  );
  return rows.map((r) => r.id);
}

type MemberRow = {
  created_at: Date | string;
  updated_at: Date | string;
  access_level: number;
  user_id: number;
  username: string;
  user_name: string;
  email: string;
  source_id: number;
  source_name: string;
  source_path: string;
  source_full_path: string;
  visibility_level: number;
};

/**
 * user_add_to_group / user_remove_from_group and user_add_to_team / user_remove_from_team (a project's
 * members), for the membership of `userId` in the group or project (read before a removal).
 */
export async function memberEvent(
  em: EntityManager,
  kind: 'group' | 'project',
  sourceId: number,
  userId: number,
  event: 'create' | 'destroy',
): Promise<SystemEvent[]> {
  const sql =
    kind === 'group'
      ? `select m.created_at, m.updated_at, m.access_level, u.id as user_id, u.username, u.name as user_name, u.email,
              g.id as source_id, g.name as source_name, g.path as source_path, g.full_path as source_full_path, g.visibility_level
         from group_members m join users u on u.id = m.user_id join namespaces g on g.id = m.group_id where m.group_id = ? and m.user_id = ?`
      : `select m.created_at, m.updated_at, m.access_level, u.id as user_id, u.username, u.name as user_name, u.email,
              p.id as source_id, p.name as source_name, p.path as source_path, n.full_path || '/' || p.path as source_full_path, p.visibility_level
         from project_members m join users u on u.id = m.user_id join projects p on p.id = m.project_id join namespaces n on n.id = p.namespace_id
        where m.project_id = ? and m.user_id = ?`;
  const [m] = await sqlRows<MemberRow>(em, sql, [sourceId, userId]);
  if (!m) return [];
  const user = { user_username: m.username, user_name: m.user_name, user_email: m.email, user_id: m.user_id };
  const access = HUMAN_ACCESS[m.access_level] ?? String(m.access_level);
  const data =
    kind === 'group'
      ? { group_name: m.source_name, group_path: m.source_path, group_id: m.source_id, ...user, group_access: access }
      : {
          project_name: m.source_name,
          project_path: m.source_path,
          project_path_with_namespace: m.source_full_path,
          project_id: m.source_id,
          ...user,
          access_level: access,
          project_visibility: VISIBILITY[m.visibility_level] ?? 'private',
        };
  const name =
    kind === 'group'
      ? event === 'create'
        ? 'user_add_to_group'
        : 'user_remove_from_group'
      : event === 'create'
        ? 'user_add_to_team'
        : 'user_remove_from_team';
  return [{ name, createdAt: pgTime(m.created_at), updatedAt: pgTime(m.updated_at), data }];
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

type UserRow = {
  id: number;
  name: string;
  username: string;
  email: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** user_create, user_destroy, user_rename (with old_username). */
export async function userEvent(
  em: EntityManager,
  userId: number,
  event: 'create' | 'destroy' | 'rename',
  oldUsername?: string,
): Promise<SystemEvent[]> {
  const [u] = await sqlRows<UserRow>(
    em,
    'select id, name, username, email, created_at, updated_at from users where id = ?',
    [userId],
  );
  if (!u) return [];
  return [
    {
      name: `user_${event}`,
      createdAt: pgTime(u.created_at),
      updatedAt: pgTime(u.updated_at),
      data: {
        name: u.name,
        email: u.email,
        user_id: u.id,
        username: u.username,
        ...(oldUsername !== undefined ? { old_username: oldUsername } : {}),
      },
    },
  ];
}

type KeyRow = { id: number; key: string; username: string; created_at: Date | string; updated_at: Date | string };

/** key_destroy for each of a user's SSH keys (GitLab 10.3 destroys them with the user, before user_destroy). */
export async function userKeyDestroyEvents(em: EntityManager, userId: number): Promise<SystemEvent[]> {
  const keys = await sqlRows<KeyRow>(
    em,
    'select k.id, k.key, u.username, k.created_at, k.updated_at from keys k join users u on u.id = k.user_id where k.user_id = ? order by k.id',
    [userId],
  );
  return keys.map((k) => ({
    name: 'key_destroy',
    createdAt: pgTime(k.created_at),
    updatedAt: pgTime(k.updated_at),
    data: { key: k.key, id: k.id, username: k.username },
  }));
}
