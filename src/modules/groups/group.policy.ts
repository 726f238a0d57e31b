import type { CurrentUser as User } from '../../core/context/request-ctx';
import { policy } from '../access';

/** Group rules beyond administering one (namespaces/namespace.policy.ts: canAdminGroup); docs/permissions.md. */
export const groupPolicy = {
  /** Top-level groups: the user's can_create_group flag; never external users (GitLab forces can_create_group off for them). */
  canCreateTopLevelGroup: (user: User | null) => !!user && (user.admin || (user.canCreateGroup && !user.external)),
  /** Group statistics: administrators only (spec 5.3). */
  canSeeStatistics: (user: User | null) => policy.isAdmin(user),
};
