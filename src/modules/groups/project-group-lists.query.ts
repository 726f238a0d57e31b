import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { AccessLevel, maxGroupLevel, policy } from '../access';
import { projectAncestryRows, projectPolicy, projectService, projectShareGroupIds, type Project } from '../projects';
import { memberTreeAt, type GroupListScope } from './group-list.query';

// The group lists of a project, each a predicate on the group row `n` for the project `projectId` names:
// a project id for REST's routes (one project), the batch key `page_keys.k` for the Project fields (a
// page of projects in one round trip). Both run them through the same group list query (group-list.query.ts).

/**
 * GitLab's Projects::GroupsFinder: the project's group and its ancestors (none for a personal project),
 * and with `withShared` the groups it is shared with through a share at `sharedMinAccessLevel` or above.
 */
export function projectGroupsMatch(
  projectId: string,
  withShared?: boolean | null,
  sharedMinAccessLevel?: number | null,
): string {
  // `::int[]` makes the subquery one array value (`any((select …))` alone would compare with each row).
  const own = `n.id = any((select a.traversal_ids from ${projectAncestryRows('a')} where a.id = ${projectId})::int[])`;
  if (!withShared) return own;
  return `(${own} or n.id = any(array(${projectShareGroupIds(projectId, sharedMinAccessLevel ?? 0)})))`;
}

/**
 * GitLab's InvitedGroupsFinder (relation: direct): the groups the project is shared with; with
 * `minAccessLevel`, only those where the caller's own level (membership there or above) is at least
 * that, none for an anonymous caller. GitLab's `relation: inherited` (groups invited to the project's
 * ancestors) is not listed: group shares grant no access here (docs/gitlab-compatibility.md, "Groups").
 */
export function invitedGroupsMatch(
  user: CurrentUser | null,
  projectId: string,
  minAccessLevel?: number | null,
): string {
  const shared = `n.id = any(array(${projectShareGroupIds(projectId)}))`;
  if (minAccessLevel === undefined || minAccessLevel === null) return shared;
  if (!user) return 'false';
  return `${shared} and ${maxGroupLevel(Number(user.id), 'n.traversal_ids')} >= ${Math.trunc(minAccessLevel)}`;
}

/** Whether the caller may administer the project (Maintainer or above, or an administrator): who may share it. */
export async function mayAdminProject(ctx: RequestCtx, project: Project): Promise<boolean> {
  if (!ctx.user) return false;
  if (policy.isAdmin(ctx.user)) return true;
  return projectPolicy.canAdminProject(ctx.user, await projectService.accessLevel(ctx, project));
}

/** A project whose group has share_with_group_lock cannot be shared with any group. */
export async function shareLocked(ctx: RequestCtx, project: Project): Promise<boolean> {
  return !!(await ctx.loaders.namespace.load(project.namespaceId))?.shareWithGroupLock;
}

/**
 * GitLab's AcceptingProjectSharesFinder, for a caller who may share the project: the groups they are a
 * member of (any level) and the groups below those; every group for an administrator.
 */
export const shareTargetScope = (user: CurrentUser): GroupListScope =>
  policy.isAdmin(user) ? {} : { match: memberTreeAt(Number(user.id), AccessLevel.GUEST) };
