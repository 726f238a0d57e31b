import type { CurrentUser as User } from '../../core/context/request-ctx';
import { AccessLevel, policy } from '../access';

/** Groups are namespaces: who administers one (docs/permissions.md). */
export const namespacePolicy = {
  /** Update, delete, create subgroups, manage members of a group: Owner (incl. inherited) or admin. */
  canAdminGroup: (user: User | null, level: number) => policy.atLeast(user, level, AccessLevel.OWNER),
};
