import type { CurrentUser as User } from '../../core/context/request-ctx';
import { policy } from '../access';

/** Who may see what of a user (docs/permissions.md). */
export const userPolicy = {
  /** Reading a private user's email, admin flag and limits: self or admin. */
  canSeePrivateUserFields: (viewer: User | null, subjectId: number) => policy.isSelfOrAdmin(viewer, subjectId),
  /** GitLab's `get_user_associations_count`: the user themself or an admin. */
  canCountAssociations: (viewer: User | null, subjectId: number) => policy.isSelfOrAdmin(viewer, subjectId),
};
