import type { CurrentUser as User } from '../../core/context/request-ctx';
import { AccessLevel, policy } from '../access';

/** Who may do what with a project (docs/permissions.md). */
export const projectPolicy = {
  /** Create a project in a group: Master or above (GitLab 10.x). */
  canCreateProjectInGroup: (user: User | null, level: number) => policy.atLeast(user, level, AccessLevel.MASTER),
  /** A project in a personal namespace: its owner or an admin. */
  canCreateProjectInUserNamespace: (user: User | null, ownerId: number | null) => policy.isSelfOrAdmin(user, ownerId),
  /** Update, archive, share, manage members, see runners_token: Master or above. */
  canAdminProject: (user: User | null, level: number) => policy.atLeast(user, level, AccessLevel.MASTER),
  /** Fork a project (GitLab 10.3's :fork_project): Reporter or above, a project open to the caller (public; internal for non-external users), or admin. */
  canForkProject: (user: User | null, level: number, openToCaller: boolean) =>
    !!user && (openToCaller || policy.atLeast(user, level, AccessLevel.REPORTER)),
  /** Delete a project, or remove its fork relation: Owner (personal namespace owner or group owner) or admin. */
  canDeleteProject: (user: User | null, level: number) => policy.atLeast(user, level, AccessLevel.OWNER),
  /** The per-user project limit binds everyone but administrators. */
  hasProjectLimit: (user: User) => !policy.isAdmin(user),
  /** Personal projects allowed: external users have none (GitLab forces projects_limit to 0 for them). */
  projectsLimit: (user: User) => (user.external ? 0 : user.projectsLimit),
};
