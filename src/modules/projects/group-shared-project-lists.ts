import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPagesByKey, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import type { Project } from './project.entity';
import type { ProjectsArgs } from './project.inputs';
import { projectService } from './project.service';

/**
 * The projects shared with each group of `groupIds` that the caller may see, one page per group in one round
 * trip (GitLab's GroupProjectsFinder with only_shared: the group's project_group_links, through their group_id
 * index), filtered and ordered as the projects list with the same arguments.
 */
export async function sharedProjectPagesOfGroups(
  ctx: RequestCtx,
  args: ProjectsArgs & PageInput,
  groupIds: number[],
): Promise<Map<number, Page<Project>>> {
  const query = await projectService.listQuery(ctx, args);
  const key = { match: 'p.id = any(array(select project_id from project_group_links where group_id = page_keys.k))' };
  return offsetPagesByKey(ctx.em, query, key, groupIds, args);
}
