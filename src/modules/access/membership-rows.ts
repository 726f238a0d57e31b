import type { EntityManager } from '@mikro-orm/postgresql';
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
