import type { CurrentUser as User } from '../../core/context/request-ctx';
import { policy } from '../access';

/** Custom attributes (fields, list filters, endpoints): administrators only (docs/permissions.md). */
export const customAttributePolicy = {
  canSeeCustomAttributes: (user: User | null) => policy.isAdmin(user),
};
