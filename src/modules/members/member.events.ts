import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import { sqlRows } from '../../core/db/sql';
import type { SystemEvent } from '../../core/events/system-events';
import { membershipEvents } from '../../core/events/system-event-catalogue';
import { HUMAN_ACCESS, VISIBILITY_NAME, directMemberships } from '../access';
import { joinNamespace } from '../namespaces';
import { joinProject } from '../projects';
import { joinUser } from '../users';

/** The memberships' system hook payloads (GitLab 10.3's SystemHooksService for a GroupMember / ProjectMember). */

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
         from ${directMemberships('group')} m ${joinUser('m.user_id')} ${joinNamespace('m.group_id', 'g')} where m.group_id = ? and m.user_id = ?`
      : `select m.created_at, m.updated_at, m.access_level, u.id as user_id, u.username, u.name as user_name, u.email,
              p.id as source_id, p.name as source_name, p.path as source_path, n.full_path || '/' || p.path as source_full_path, p.visibility_level
         from ${directMemberships('project')} m ${joinUser('m.user_id')} ${joinProject('m.project_id')} ${joinNamespace('p.namespace_id')}
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
          project_visibility: VISIBILITY_NAME[m.visibility_level] ?? 'private',
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

membershipEvents.provide(memberEvent);
