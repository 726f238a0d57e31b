import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Internal } from '../../core/graphql/internal';
import { UserAssociationsCountType, userAssociations } from './user-associations';
import { UserIdArg } from './user.type';

/** A user's association counts (GitLab's users API). */
@Resolver()
export class UserAssociationsResolver {
  /**
   * REST's GET /users/:id/associations_count: internal view only. GraphQL clients read GitLab's
   * `User.groupCount` and `User.projectCount` (the same counts, for the same callers).
   */
  @Internal()
  @Query(() => UserAssociationsCountType, {
    description: 'How many groups and projects a user is a direct member of (the user themself or an admin).',
  })
  // GitLab authenticates inside the endpoint, after the parameters (a bad id is 400 before 401).
  @Allow('anonymous', { scopes: ['read_user'] })
  userAssociationsCount(
    @Arg('id', () => UserIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<UserAssociationsCountType> {
    return userAssociations.count(ctx, id);
  }
}
