import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { User } from './user.entity';
import { userFollows } from './user-follows';
import { UserIdArg, UserPage, UserType } from './user.type';

/** Users following users (docs/rest.md#following). */
@Resolver(() => UserType)
export class UserFollowsResolver {
  @Mutation(() => UserType, { nullable: true, description: 'The followed user; null when already followed.' })
  @Allow('user')
  followUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<User | null> {
    return userFollows.follow(ctx, id);
  }

  @Mutation(() => UserType, { nullable: true, description: 'The user no longer followed; null when not followed.' })
  @Allow('user')
  unfollowUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<User | null> {
    return userFollows.unfollow(ctx, id);
  }

  @Query(() => UserPage, { description: "A user's followers, the latest first (signed-in callers)." })
  @Allow('anonymous', { scopes: ['read_user'] })
  userFollowers(
    @Arg('id', () => UserIdArg) id: number,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<User>> {
    return userFollows.list(ctx, id, 'followers', args);
  }

  @Query(() => UserPage, { description: 'The users a user follows, the latest first (signed-in callers).' })
  @Allow('anonymous', { scopes: ['read_user'] })
  userFollowing(
    @Arg('id', () => UserIdArg) id: number,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<User>> {
    return userFollows.list(ctx, id, 'following', args);
  }
}
