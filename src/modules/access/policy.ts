import type { CurrentUser as User } from '../../core/context/request-ctx';

/**
 * The shared rules every module's policy is built on (docs/permissions.md): pure functions over the
 * caller and its effective access level. Each resource's own rules are in its module's
 * `<module>.policy.ts` (projects/project.policy.ts, groups/group.policy.ts, …), made of these; the
 * visibility *sets* are the SQL twins in visibility-sql.ts. Effective levels include membership
 * inherited from ancestor groups and shares (access-levels computed in SQL).
 */
export const policy = {
  /** Instance administrators: every object, every admin-only field and filter. */
  isAdmin: (user: User | null): boolean => !!user && user.admin,
  /** An administrator, or a caller whose effective level on the object is at least `min`. */
  atLeast: (user: User | null, level: number, min: number): boolean => !!user && (user.admin || level >= min),
  /** The caller is this user, or an administrator. */
  isSelfOrAdmin: (user: User | null, userId: number | null): boolean => !!user && (user.admin || user.id === userId),
};
