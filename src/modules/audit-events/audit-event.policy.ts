import type { CurrentUser as User } from '../../core/context/request-ctx';
import { policy } from '../access';

/** The entities whose events a user who is not an administrator may read (their group's or project's). */
const MEMBER_SCOPES = new Set(['Group', 'Project']);

/**
 * Who reads audit events (docs/permissions.md): administrators every event (the instance list, any
 * id); others, in the lists and node lookups, the events of a group they own or a project they administer (the
 * service checks that object with the groups' and projects' own rules).
 */
export const auditEventPolicy = {
  canReadAll: (user: User | null) => policy.isAdmin(user),
  /** Could this caller read events of this entity kind at all (before the object's own check)? */
  mayReadEntityKind: (user: User | null, entityType: string) => policy.isAdmin(user) || MEMBER_SCOPES.has(entityType),
};
