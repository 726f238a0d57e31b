import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../../core/db/sql';
import { GroupMember, ProjectMember } from './member.entity';

// Membership rows written and read by other modules' services through access's door
// (docs/architecture.md, "Tables").

export interface NewMembership {
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  now: Date;
}

/** Persists a new group membership in `em` (the caller flushes). */
export function addGroupMember(em: EntityManager, groupId: number, m: NewMembership): GroupMember {
  const row = em.create(GroupMember, {
    groupId,
    userId: m.userId,
    accessLevel: m.accessLevel,
    expiresAt: m.expiresAt,
    createdAt: m.now,
    updatedAt: m.now,
  });
  em.persist(row);
  return row;
}

/** Persists a new project membership in `em` (the caller flushes). */
export function addProjectMember(em: EntityManager, projectId: number, m: NewMembership): ProjectMember {
  const row = em.create(ProjectMember, {
    projectId,
    userId: m.userId,
    accessLevel: m.accessLevel,
    expiresAt: m.expiresAt,
    createdAt: m.now,
    updatedAt: m.now,
  });
  em.persist(row);
  return row;
}

/**
 * Makes the user a direct member of the project at `level` at least, without expiry: inserts the
 * membership, or raises a lower or expiring one (GitLab's `add_member` on an existing member). True
 * when it inserted one (the caller emits its `user_add_to_team`).
 */
export async function ensureProjectMember(
  em: EntityManager,
  projectId: number,
  userId: number,
  level: number,
  now: Date,
): Promise<boolean> {
  const rows = await sqlRows<{ inserted: boolean }>(
    em,
    `insert into project_members (project_id, user_id, access_level, expires_at, created_at, updated_at)
     values (?, ?, ?, null, ?, ?)
     on conflict (project_id, user_id) do update set access_level = excluded.access_level, expires_at = null, updated_at = excluded.updated_at
       where project_members.access_level < excluded.access_level or project_members.expires_at is not null
     returning (xmax = 0) as inserted`,
    [projectId, userId, level, now, now],
  );
  return rows[0]?.inserted === true;
}
