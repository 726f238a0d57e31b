import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { User } from './user.entity';
import { userFollows } from './user-follows';
import { UserIdArg, UserPage, UserType } from './user.type';

export function userFollowLoaders(ctx: RequestCtx) {
  return {
    /** `User.followers` across the users of a list: one round trip per argument set. */
    userFollowerLists: perParentPages<PageArgs, User>((args, ids) =>
      userFollows.listForUsers(ctx, 'followers', ids, args),
    ),
    /** `User.following` across the users of a list. */
    userFollowingLists: perParentPages<PageArgs, User>((args, ids) =>
      userFollows.listForUsers(ctx, 'following', ids, args),
    ),
  };
}

type UserFollowLoaders = ReturnType<typeof userFollowLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserFollowLoaders {}
}

/**
 * Users following users (docs/rest.md#following). The lists are REST's root fields (internal view
 * only): GraphQL clients read `User.followers` and `User.following` (ours).
 */
@Resolver(() => UserType)
export class UserFollowsResolver {
  @FieldResolver(() => UserPage, {
    nullable: true,
    description: "The user's followers, the latest first: for signed-in callers; null for anonymous ones.",
  })
  @Reads('id')
  followers(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<User>> | null {
    return ctx.user ? ctx.loaders.userFollowerLists.load({ parentId: u.id, args }) : null;
  }

  @FieldResolver(() => UserPage, {
    nullable: true,
    description: 'The users this user follows, the latest first: for signed-in callers; null for anonymous ones.',
  })
  @Reads('id')
  following(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<User>> | null {
    return ctx.user ? ctx.loaders.userFollowingLists.load({ parentId: u.id, args }) : null;
  }

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

  @Internal()
  @Query(() => UserPage, { description: "A user's followers, the latest first (signed-in callers)." })
  @Allow('anonymous', { scopes: ['read_user'] })
  userFollowers(
    @Arg('id', () => UserIdArg) id: number,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<User>> {
    return userFollows.list(ctx, id, 'followers', args);
  }

  @Internal()
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
