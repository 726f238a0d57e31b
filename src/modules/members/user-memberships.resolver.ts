import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Internal } from '../../core/graphql/internal';
import { PageArgs, type Page } from '../../core/pagination/page';
import { UserIdArg } from '../users';
import { UserMembershipPage, UserMembershipType, userMemberships } from './user-memberships';

@Resolver(() => UserMembershipType)
export class UserMembershipsResolver {
  /**
   * REST's GET /users/:user_id/memberships: internal view only (with its UserMembership type). GraphQL
   * clients read GitLab's `User.groupMemberships` and `User.projectMemberships`.
   */
  @Internal()
  @Query(() => UserMembershipPage, {
    description: "Administrators only: a user's direct group and project memberships.",
  })
  @Allow('admin', { scopes: ['read_user'] })
  userMemberships(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('type', () => String, { nullable: true, description: 'Namespace (groups) or Project.' }) type: string | null,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<UserMembershipType>> {
    return userMemberships(ctx, userId, type, args);
  }
}
