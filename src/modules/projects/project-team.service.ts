import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPage, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { activeGroupMemberIds, activeMembership, activeProjectMemberIds, joinActiveGroupMembers } from '../access';
import { groupAndAncestorIds, joinNamespace, personalNamespaceOwnerId } from '../namespaces';
import { usersAmongQuery, type User } from '../users';
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

export interface ProjectUsersArgs extends PageInput {
  search?: string | null;
}

/** GET /projects/:id/users: the team of a project the caller may see (anonymous callers: public projects). */
async function users(ctx: RequestCtx, idOrPath: string, args: ProjectUsersArgs): Promise<Page<User>> {
  const project = await projectService.findVisible(ctx, idOrPath);
  const query = usersAmongQuery(ctx.em, teamIdsSql(project.id, project.namespaceId), args.search);
  return offsetPage(ctx.em, query, args);
}

export const projectTeamService = { users };
