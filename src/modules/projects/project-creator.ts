import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { groupLevelsSql } from '../namespaces';
import type { Project } from './project.entity';

/** A create on behalf of another user (POST /projects/user/:user_id), or a fork (project-fork.service.ts). */
export interface CreateOptions {
  /** The user the project is created as (its creator; permissions and projects_limit are theirs). Default: the caller. */
  creator?: CurrentUser;
  /** The fork's source: the new project is linked to it and the source's forks_count follows (forks-count.ts). */
  forkOf?: Project;
}

/** The creator's effective level in a group: the caller's from the request's loader, another user's by one query. */
export async function groupLevelOf(ctx: RequestCtx, user: CurrentUser, groupId: number): Promise<number> {
  if (user === ctx.user) return ctx.loaders.groupLevel.load(groupId);
  const [row] = await sqlRows<{ level: number }>(ctx.em, groupLevelsSql(Number(user.id), [groupId]));
  return Number(row?.level ?? 0);
}
