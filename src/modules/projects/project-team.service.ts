import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, likeEscape } from '../../core/db/sql';
import { offsetPage, type ListQuery, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { activeMembership } from '../access';
import { User } from '../users';
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
  return `select pm.user_id from project_members pm where pm.project_id = ${p} and ${activeMembership('pm')}
    union select gm.user_id from group_members gm
      where gm.group_id = any(array(select unnest(n.traversal_ids) from namespaces n where n.id = ${ns} and n.kind = 'group')) and ${activeMembership('gm')}
    union select sgm.user_id from project_group_links l join namespaces s on s.id = l.group_id
      join group_members sgm on sgm.group_id = any(s.traversal_ids) and ${activeMembership('sgm')}
      where l.project_id = ${p} and ${activeMembership('l')}
    union select n.owner_id from namespaces n where n.id = ${ns} and n.owner_id is not null`;
}

/**
 * GitLab 10.3's User.search on name and username (Gitlab::SQL::Pattern: each word of 3 or more
 * characters matches a substring, all words; a shorter query matches the whole value) or the exact
 * e-mail, ranked exact name, username, e-mail first, then by name.
 */
function searchFilter(search: string, where: string[], params: unknown[]): void {
  const query = search.trim().replace(/\s+/g, ' ');
  const words = query.split(' ').filter((w) => w.length >= 3);
  const match = (col: string) => {
    if (words.length === 0) {
      params.push(likeEscape(query));
      return `${col} ilike ?`;
    }
    for (const w of words) params.push(`%${likeEscape(w)}%`);
    return `(${words.map(() => `${col} ilike ?`).join(' and ')})`;
  };
  const name = match('u.name');
  const username = match('u.username');
  params.push(query);
  where.push(`(${name} or ${username} or lower(u.email) = lower(?))`);
}

export interface ProjectUsersArgs extends PageInput {
  search?: string | null;
}

/** GET /projects/:id/users: the team of a project the caller may see (anonymous callers: public projects). */
async function users(ctx: RequestCtx, idOrPath: string, args: ProjectUsersArgs): Promise<Page<User>> {
  const project = await projectService.findVisible(ctx, idOrPath);
  const where = [`u.id = any(array(${teamIdsSql(project.id, project.namespaceId)}))`];
  const params: unknown[] = [];
  let from = 'users u';
  let orderBy = 'u.id';
  if (args.search) {
    // The rank's parameters come first: they sit in the FROM, before the WHERE.
    const q = args.search.toLowerCase();
    params.push(q, q, q);
    from = `(select u.*, case when u.name = ? then 0 when u.username = ? then 1 when u.email = ? then 2 else 3 end as search_rank from users u) u`;
    orderBy = 'u.search_rank asc, u.name';
    searchFilter(args.search, where, params);
  }
  const query: ListQuery<User> = {
    select: 'u.*',
    from,
    where,
    params,
    orderBy,
    dir: 'asc',
    id: 'u.id',
    map: (r) => lightEntity(ctx.em, User, r),
  };
  return offsetPage(ctx.em, query, args);
}

export const projectTeamService = { users };
