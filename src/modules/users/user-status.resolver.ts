import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import type { User } from './user.entity';
import { userService } from './user.service';
import { NO_STATUS, SetUserStatusInput, UserStatusType, userStatusService } from './user-status';
import { UserType } from './user.type';

/** User statuses (docs/rest.md#user-status): GitLab's `User.status`, and the REST routes' root fields (internal view only). */
@Resolver(() => UserType)
export class UserStatusResolver {
  @FieldResolver(() => UserStatusType, { nullable: true, description: "The user's status; null without one." })
  async status(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<UserStatusType | null> {
    const status = await ctx.loaders.userStatus.load(u.id);
    return status === NO_STATUS ? null : status;
  }

  @Internal()
  @Query(() => UserStatusType, { description: "The caller's status; every field null without one." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserStatus(@Ctx() ctx: RequestCtx): Promise<UserStatusType> {
    return ctx.loaders.userStatus.load(requireUser(ctx).id);
  }

  @Internal()
  @Query(() => UserStatusType, { description: "A user's status (an id or a username); every field null without one." })
  @Allow('anonymous', { scopes: ['read_user'] })
  async userStatus(@Arg('userId', () => ID) userId: string, @Ctx() ctx: RequestCtx): Promise<UserStatusType> {
    const user = await userService.findByIdOrUsername(ctx, userId);
    return ctx.loaders.userStatus.load(user.id);
  }

  @Mutation(() => UserStatusType, {
    description: "Sets the caller's status; no emoji, message or availability clears it.",
  })
  @Allow('user')
  setUserStatus(
    @Arg('input', () => SetUserStatusInput) input: SetUserStatusInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<UserStatusType> {
    return userStatusService.set(ctx, input);
  }
}
