import { Field, Int, ObjectType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { sqlRows } from '../../core/db/sql';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { AccessLevel, groupMembershipsOf, projectMembershipsOf } from '../access';
import { userPolicy } from './user.policy';
import { userService } from './user.service';

/**
 * GET /users/:id/associations_count (GitLab's Entities::UserAssociationsCount): the groups and projects
 * the user is a direct member of (GitLab's `user.groups`, `user.projects`: through the memberships).
 * Issues and merge requests are not served here, so their counts are 0.
 */
@ObjectType('UserAssociationsCount', { description: 'How many groups and projects a user is a direct member of.' })
export class UserAssociationsCountType {
  @Field(() => Int) groupsCount!: number;
  @Field(() => Int) projectsCount!: number;
  @Field(() => Int, { description: 'Always 0: issues are not served here.' }) issuesCount!: number;
  @Field(() => Int, { description: 'Always 0: merge requests are not served here.' }) mergeRequestsCount!: number;
}

/** GitLab's order: 401, the user (404), then the rule (403). */
async function count(ctx: RequestCtx, id: number): Promise<UserAssociationsCountType> {
  const caller = requireUser(ctx);
  const user = await userService.get(ctx, id);
  if (!userPolicy.canCountAssociations(caller, user.id)) throw new ForbiddenError();
  const [row] = await sqlRows<{ groups: number; projects: number }>(
    ctx.em,
    `select (select count(*)::int from ${groupMembershipsOf(user.id, AccessLevel.GUEST)}) as groups,
            (select count(*)::int from ${projectMembershipsOf(user.id, AccessLevel.GUEST)}) as projects`,
  );
  return { groupsCount: row.groups, projectsCount: row.projects, issuesCount: 0, mergeRequestsCount: 0 };
}

export const userAssociations = { count };
