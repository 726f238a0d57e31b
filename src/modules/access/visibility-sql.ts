import type { CurrentUser as User } from '../../core/context/request-ctx';
import { VISIBILITY_LEVEL } from './visibility.type';

/**
 * SQL twins of the membership side of the visibility model (docs/permissions.md, "Visibility"). The
 * predicates over groups and projects are built on these by their owners (namespaces: the member
 * tree and group levels; projects: project visibility, group visibility and project levels). Every
 * fragment is set-based (no query per level of nesting). User ids are integers from the database and
 * are inlined as numbers.
 */

/** A membership or share counts until its expires_at day (GitLab removes expired members daily). */
export const activeMembership = (alias: string) =>
  `(${alias}.expires_at is null or ${alias}.expires_at > current_date)`;

export function intArray(ids: readonly number[]): string {
  return `'{${ids.map((id) => Math.trunc(Number(id))).join(',')}}'::int[]`;
}

/**
 * The user's active direct group memberships as an array subquery: PostgreSQL runs it once per
 * statement (an InitPlan), so predicates built on it cost one index lookup of group_members.
 */
export const memberGroupIds = (userId: number) =>
  `array(select gm.group_id from group_members gm where gm.user_id = ${userId} and ${activeMembership('gm')})`;

/** A select of the ids of the projects the user is an active direct member of. */
export const directProjectIds = (userId: number) =>
  `select pm.project_id from project_members pm where pm.user_id = ${userId} and ${activeMembership('pm')}`;

/** Scalar: the user's highest active access level in any of the groups `groupIds` (an int[] expression; 0 without one). */
export const maxGroupLevel = (userId: number, groupIds: string, as = 'gm') =>
  `coalesce((select max(${as}.access_level) from group_members ${as} where ${as}.user_id = ${userId} and ${as}.group_id = any(${groupIds}) and ${activeMembership(as)}), 0)`;

/** Scalar: the user's active access level in the project `projectId` names (0 without one). */
export const projectMemberLevel = (userId: number, projectId: string) =>
  `coalesce((select max(pm.access_level) from project_members pm where pm.project_id = ${projectId} and pm.user_id = ${userId} and ${activeMembership('pm')}), 0)`;

/** Public for everyone; internal too for signed-in, non-external users (docs/permissions.md, "Visibility"). */
export function levelPredicate(alias: string, user: User | null): string {
  if (!user || user.external) return `${alias}.visibility_level = ${VISIBILITY_LEVEL.PUBLIC}`;
  return `${alias}.visibility_level >= ${VISIBILITY_LEVEL.INTERNAL}`;
}
