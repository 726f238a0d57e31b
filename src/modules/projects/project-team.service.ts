import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPage, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import {
  activeGroupMemberIds,
  activeMembership,
  activeProjectMemberIds,
  activeProjectsMemberIds,
  joinActiveGroupMembers,
} from '../access';
import { descendantIds, groupAndAncestorIds, joinNamespace, personalNamespaceOwnerId } from '../namespaces';
import { autocompleteUsersByKey, usersAmongQuery, type User } from '../users';
import { projectService } from './project.service';

/**
 * The project's team as GitLab 10.3's `project.team.users` (its authorized users): direct members,
 * members of the project's group and its ancestors, members of the groups it is shared with (and of
 * their ancestors), and the owner of a personal namespace; active memberships only. One `= any(array())`
 * of user ids, then the users by primary key.
 */
function teamIdsSql(projectId: number, namespaceId: number): string {
  return teamIdsOf(String(Number(projectId)), String(Number(namespaceId)));
}

/** The same select for SQL expressions of the project's id and its namespace's id. */
function teamIdsOf(p: string, ns: string): string {
  return `${activeProjectMemberIds(p)}
    union ${activeGroupMemberIds(groupAndAncestorIds(ns))}
    union select sgm.user_id from project_group_links l ${joinNamespace('l.group_id', 's')}
      ${joinActiveGroupMembers('s.traversal_ids', 'sgm')}
      where l.project_id = ${p} and ${activeMembership('l')}
    union ${personalNamespaceOwnerId(ns)}`;
}

/**
 * A select of the user ids of the projects in a group and its descendants (`groupId`, an SQL expression of the
 * group's id): their active members and the active members of the groups they are shared with (GitLab's
 * Autocomplete::GroupUsersFinder).
 */
export function subtreeProjectUserIdsSql(groupId: string): string {
  const projects = `array(select p.id from projects p where p.namespace_id = any(${descendantIds(groupId)}))`;
  return `${activeProjectsMemberIds(projects)}
    union ${activeGroupMemberIds(`array(select l.group_id from project_group_links l where l.project_id = any(${projects}) and ${activeMembership('l')})`)}`;
}

export interface ProjectUsersArgs extends PageInput {
  search?: string | null;
}

/** GET /projects/:id/users: the team of a project the caller may see (anonymous callers: public projects). */
async function users(ctx: RequestCtx, idOrPath: string, args: ProjectUsersArgs): Promise<Page<User>> {
  const project = await projectService.findVisible(ctx, idOrPath);
  const query = usersAmongQuery(ctx.em, teamIdsSql(project.id, project.namespaceId), args.search);
  return offsetPage(ctx.em, query, args);
}

/**
 * GitLab's `Project.autocompleteUsers` (Autocomplete::UsersFinder with a project) of many projects the caller
 * may see, in one statement: each project's authorized users (its team), active ones, at most 20.
 */
function autocompleteUsers(
  ctx: RequestCtx,
  projectIds: readonly number[],
  search?: string | null,
): Promise<Map<number, User[]>> {
  const namespaceOf = (p: string) => `(select tp.namespace_id from projects tp where tp.id = ${p})`;
  return autocompleteUsersByKey(ctx.em, projectIds, (p) => teamIdsOf(p, namespaceOf(p)), search);
}

export const projectTeamService = { users, autocompleteUsers };
