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
import { autocompleteUsersAmong, usersAmongQuery, type User } from '../users';
import type { Project } from './project.entity';
import { projectService } from './project.service';

/**
 * The project's team as GitLab 10.3's `project.team.users` (its authorized users): direct members,
 * members of the project's group and its ancestors, members of the groups it is shared with (and of
 * their ancestors), and the owner of a personal namespace; active memberships only. One `= any(array())`
 * of user ids, then the users by primary key.
 */
function teamIdsSql(projectId: number, namespaceId: number): string {
  const p = Number(projectId);
  const ns = Number(namespaceId);
  return `${activeProjectMemberIds(String(p))}
    union ${activeGroupMemberIds(groupAndAncestorIds(String(ns)))}
    union select sgm.user_id from project_group_links l ${joinNamespace('l.group_id', 's')}
      ${joinActiveGroupMembers('s.traversal_ids', 'sgm')}
      where l.project_id = ${p} and ${activeMembership('l')}
    union ${personalNamespaceOwnerId(String(ns))}`;
}

/**
 * A select of the user ids of the projects in a group and its descendants (`groupId`, a trusted integer): their
 * active members and the active members of the groups they are shared with (GitLab's Autocomplete::GroupUsersFinder).
 */
export function subtreeProjectUserIdsSql(groupId: number): string {
  const projects = `array(select p.id from projects p where p.namespace_id = any(${descendantIds(String(Number(groupId)))}))`;
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
 * GitLab's `Project.autocompleteUsers` (Autocomplete::UsersFinder with a project): the project's authorized users,
 * active ones, by name or by search rank, at most 20. The project is already visible to the caller.
 */
function autocompleteUsers(ctx: RequestCtx, project: Project, search?: string | null): Promise<User[]> {
  return autocompleteUsersAmong(ctx.em, teamIdsSql(project.id, project.namespaceId), search);
}

export const projectTeamService = { users, autocompleteUsers };
