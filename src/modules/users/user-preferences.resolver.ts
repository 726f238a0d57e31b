import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { User } from './user.entity';
import { UpdateUserPreferencesInput, UserPreferencesType, userPreferencesService } from './user-preferences';
import { UserType } from './user.type';

/** The signed-in user's preferences (GitLab's `UserPreferences` and `userPreferencesUpdate`). */
@Resolver(() => UserType)
export class UserPreferencesResolver {
  @FieldResolver(() => UserPreferencesType, {
    nullable: true,
    description: "The user's preferences: only on the signed-in user themself, else null.",
  })
  preferences(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<UserPreferencesType> | null {
    return ctx.user?.id === u.id ? userPreferencesService.get(ctx) : null;
  }

  @Internal()
  @Query(() => UserPreferencesType, { description: "The signed-in user's preferences." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserPreferences(@Ctx() ctx: RequestCtx): Promise<UserPreferencesType> {
    return userPreferencesService.get(ctx);
  }

  @Mutation(() => UserPreferencesType, {
    description: "Changes the signed-in user's preferences; the others are kept.",
  })
  @Allow('user')
  updateUserPreferences(
    @Arg('input', () => UpdateUserPreferencesInput) input: UpdateUserPreferencesInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<UserPreferencesType> {
    return userPreferencesService.update(ctx, input);
  }
}
