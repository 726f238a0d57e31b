import { AccessLevel } from './access-level';
import { activeMembership } from './visibility-sql';

// The membership tables (group_members, project_members) for other modules' statements
// (docs/architecture.md, "Tables"): who is a member of what, at which level, and until when.
// Arguments are SQL expressions (a column, a `?` placeholder or an inlined integer).

/** Joins the membership rows of the group `groupId` names, as `as`. */
export const joinGroupMembers = (groupId: string, as = 'gm') =>
  `join group_members ${as} on ${as}.group_id = ${groupId}`;

/** Joins the membership rows of the project `projectId` names, as `as`. */
export const joinProjectMembers = (projectId: string, as = 'pm') =>
  `join project_members ${as} on ${as}.project_id = ${projectId}`;

/** Predicate: the group `groupId` has an active Owner other than the user `userId`. */
export const otherActiveOwner = (groupId: string, userId: string) =>
  `exists (select 1 from group_members o
         where o.group_id = ${groupId} and o.user_id <> ${userId} and o.access_level = ${AccessLevel.OWNER} and ${activeMembership('o')})`;

/** Scalar subquery: how many distinct users are active members of any of the groups `groupIds` (an int[] expression). */
export const activeGroupMemberCount = (groupIds: string) =>
  `(select count(distinct gm.user_id) from group_members gm
                    where gm.group_id = any(${groupIds}) and ${activeMembership('gm')})`;

/** A select of the user ids of the project's active direct members. */
export const activeProjectMemberIds = (projectId: string) =>
  `select pm.user_id from project_members pm where pm.project_id = ${projectId} and ${activeMembership('pm')}`;

/** A select of the user ids of the active members of any of the projects `projectIds` (an int[] expression). */
export const activeProjectsMemberIds = (projectIds: string) =>
  `select pm.user_id from project_members pm where pm.project_id = any(${projectIds}) and ${activeMembership('pm')}`;

/** A select of the user ids of the active members of any of the groups `groupIds` (an int[] expression). */
export const activeGroupMemberIds = (groupIds: string) =>
  `select gm.user_id from group_members gm
      where gm.group_id = any(${groupIds}) and ${activeMembership('gm')}`;

/** Joins, as `as`, the active memberships of any of the groups `groupIds` (an int[] expression, e.g. a row's traversal_ids). */
export const joinActiveGroupMembers = (groupIds: string, as: string) =>
  `join group_members ${as} on ${as}.group_id = any(${groupIds}) and ${activeMembership(as)}`;

/** Joins, as `as`, the user's active membership of the project `projectId` names (callers write `left` before it). */
export const joinUserProjectMembership = (projectId: string, userId: number, as = 'pm') =>
  `join project_members ${as} on ${as}.project_id = ${projectId} and ${as}.user_id = ${userId} and ${activeMembership(as)}`;

/** Joins, as `as`, the user's active direct membership of the group `groupId` names (callers write `left` before it). */
export const joinUserGroupMembership = (groupId: string, userId: number, as = 'gm') =>
  `join group_members ${as} on ${as}.group_id = ${groupId} and ${as}.user_id = ${userId} and ${activeMembership(as)}`;

/** A row source (`from …`): the user's active group memberships at `minLevel` or above, as `as`. */
export const groupMembershipsOf = (userId: number, minLevel: number, as = 'gm') =>
  `group_members ${as}
                       where ${as}.user_id = ${userId} and ${as}.access_level >= ${minLevel} and ${activeMembership(as)}`;

/** A row source (`from …`): the user's active project memberships at `minLevel` or above, as `as`. */
export const projectMembershipsOf = (userId: number, minLevel: number, as = 'pm') =>
  `project_members ${as} where ${as}.user_id = ${userId} and ${as}.access_level >= ${minLevel} and ${activeMembership(as)}`;

/**
 * One row per user among `userIds` (an int[] expression): `user_id`, and its active direct group and
 * project memberships counted as `groups` and `projects` (group_members_user_idx, project_members_user_idx).
 */
export const membershipCountsOf = (userIds: string) =>
  `select u.id as user_id,
     (select count(*)::int from group_members gm where gm.user_id = u.id and ${activeMembership('gm')}) as groups,
     (select count(*)::int from project_members pm where pm.user_id = u.id and ${activeMembership('pm')}) as projects
   from unnest(${userIds}) u(id)`;

/** A select of one row per membership (any state) of the group `groupId` names, for counts. */
export const groupMembershipRows = (groupId: string) => `select 1 from group_members m where m.group_id = ${groupId}`;

/** A select of the ids of the groups where the user has an active direct membership at exactly `level`. */
export const groupIdsWhereUserIs = (userId: number, level: number) =>
  `select gm.group_id from group_members gm where gm.user_id = ${userId} and gm.access_level = ${level} and ${activeMembership('gm')}`;

/**
 * A select of the ids of the groups where the user `userExpr` names (an SQL expression, e.g. a batch key)
 * has an active direct membership at `minLevel` or above.
 */
export const groupIdsOfMemberAtLeast = (userExpr: string, minLevel: number, as = 'ugm') =>
  `select ${as}.group_id from group_members ${as}
    where ${as}.user_id = ${userExpr} and ${as}.access_level >= ${minLevel} and ${activeMembership(as)}`;
