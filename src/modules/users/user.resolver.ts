import { UserIdArg } from './user.type';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { User } from './user.entity';
import { CreateUserInput, UpdateUserInput, UsersArgs } from './user.inputs';
import { userService } from './user.service';
import { userState } from './user-state';
import { userWebUrl } from './user-web-url';
import { avatarUrl } from '../avatars';
import { IdentityType, UserPage, UserType } from './user.type';
import { IDENTITIES_MAX, type IdentityView } from './identity.service';
import { ParamError } from '../../core/errors/domain-errors';
import { MaxItems } from '../../core/graphql/list-bound';
import { userPolicy } from './user.policy';

@Resolver(() => UserType)
export class UserResolver {
  @Query(() => UserType, {
    nullable: true,
    description: "The authenticated user; null for an anonymous caller (as GitLab's GraphQL API).",
  })
  @Allow('anonymous', { scopes: ['read_user'] })
  currentUser(@Ctx() ctx: RequestCtx): User | null {
    return ctx.user ?? null;
  }

  @Query(() => UserPage)
  @Allow('anonymous', { scopes: ['read_user'] })
  users(@Args() args: UsersArgs, @Ctx() ctx: RequestCtx): Promise<Page<User>> {
    return userService.list(ctx, args);
  }

  @Query(() => UserType, {
    description: "A user by id or by username (GitLab's `user(id, username)`: one of the two).",
  })
  @Allow('anonymous', { scopes: ['read_user'] })
  async user(
    @Arg('id', () => UserIdArg, { nullable: true }) id: number | null,
    @Arg('username', () => String, { nullable: true }) username: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<User> {
    if ((id === null || id === undefined) === (username === null || username === undefined))
      throw new ParamError('Provide either a single username or id');
    return userService.get(ctx, id ?? (await userService.idByUsername(ctx, username!)) ?? 0);
  }

  @Mutation(() => UserType, { description: 'Administrators only.' })
  @Allow('admin')
  createUser(@Arg('input', () => CreateUserInput) input: CreateUserInput, @Ctx() ctx: RequestCtx): Promise<User> {
    return userService.create(ctx, input);
  }

  @Mutation(() => UserType, { description: 'Administrators only.' })
  @Allow('admin')
  updateUser(
    @Arg('id', () => UserIdArg) id: number,
    @Arg('input', () => UpdateUserInput) input: UpdateUserInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<User> {
    return userService.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Administrators only.' })
  @Allow('admin')
  deleteUser(
    @Arg('id', () => UserIdArg) id: number,
    @Arg('hardDelete', () => Boolean, { nullable: true, description: 'Also delete the groups the user solely owns.' })
    hardDelete: boolean | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return userService.remove(ctx, id, hardDelete ?? false);
  }

  @Mutation(() => Boolean, {
    description: 'Administrators only. True when the user is blocked now; false when the user already was.',
  })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  blockUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return userState.block(ctx, id) as Promise<boolean>;
  }

  @Mutation(() => Boolean, {
    description: 'Administrators only. True when the user is active now; false when the user already was.',
  })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  unblockUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return userState.unblock(ctx, id) as Promise<boolean>;
  }

  @Mutation(() => Boolean, { description: "Administrators only. Removes the user's identity at an external provider." })
  @Allow('admin')
  deleteUserIdentity(
    @Arg('id', () => UserIdArg) id: number,
    @Arg('provider', () => String) provider: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return userService.deleteIdentity(ctx, id, provider);
  }

  @Mutation(() => Boolean, {
    nullable: true,
    description:
      'Administrators only. True when the user is deactivated now; null when the user already was. Only a user without activity for 90 days can be deactivated.',
  })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  deactivateUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean | null> {
    return userState.deactivate(ctx, id);
  }

  @Mutation(() => Boolean, {
    description:
      'Administrators only. True when a deactivated user is active now; false when the user already was active.',
  })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  activateUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return userState.activate(ctx, id) as Promise<boolean>;
  }

  @Mutation(() => Boolean, { description: 'Administrators only. Bans an active user: true.' })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  banUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return userState.ban(ctx, id) as Promise<boolean>;
  }

  @Mutation(() => Boolean, { description: 'Administrators only. Unbans a banned user: true.' })
  @Allow('admin')
  @PayloadMutation({ field: 'changed' })
  unbanUser(@Arg('id', () => UserIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return userState.unban(ctx, id) as Promise<boolean>;
  }

  @FieldResolver(() => String)
  webUrl(@Root() u: User, @Ctx() ctx: RequestCtx): string {
    return userWebUrl(ctx.externalUrl, u.username);
  }

  @FieldResolver(() => String, {
    description: "Web path of the user's profile (`/<username>`, under the instance's relative URL root).",
  })
  webPath(@Root() u: User, @Ctx() ctx: RequestCtx): string {
    return new URL(userWebUrl(ctx.externalUrl, u.username)).pathname;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Groups the user is a direct member of; only for the user themself and administrators (null for others).',
  })
  async groupCount(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<number | null> {
    if (!userPolicy.canCountAssociations(ctx.user, u.id)) return null;
    return (await ctx.loaders.userMembershipCounts.load(u.id)).groups;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Projects the user is a direct member of; only for the user themself and administrators (null for others).',
  })
  async projectCount(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<number | null> {
    if (!userPolicy.canCountAssociations(ctx.user, u.id)) return null;
    return (await ctx.loaders.userMembershipCounts.load(u.id)).projects;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the user is active (not blocked, banned or deactivated).' })
  active(@Root() u: User): boolean {
    return u.state === 'active';
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Absolute URL of the uploaded avatar image; null without one.',
  })
  avatarUrl(@Root() u: User, @Ctx() ctx: RequestCtx): string | null {
    return avatarUrl(ctx.externalUrl, 'user', u.id, u.avatar);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The last day of an authenticated request (YYYY-MM-DD). Only for the user themself and administrators.',
  })
  lastActivityOn(@Root() u: User, @Ctx() ctx: RequestCtx): string | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.lastActivityOn : null;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Only for the user themself and administrators.' })
  email(@Root() u: User, @Ctx() ctx: RequestCtx): string | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.email : null;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'Only for the user themself and administrators.' })
  isAdmin(@Root() u: User, @Ctx() ctx: RequestCtx): boolean | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.admin : null;
  }

  @FieldResolver(() => Boolean, { nullable: true }) canCreateGroup(
    @Root() u: User,
    @Ctx() ctx: RequestCtx,
  ): boolean | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.canCreateGroup : null;
  }

  @FieldResolver(() => Boolean, { nullable: true }) canCreateProject(
    @Root() u: User,
    @Ctx() ctx: RequestCtx,
  ): boolean | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.projectsLimit > 0 : null;
  }

  @FieldResolver(() => Int, { nullable: true }) projectsLimit(@Root() u: User, @Ctx() ctx: RequestCtx): number | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.projectsLimit : null;
  }

  @FieldResolver(() => Boolean, { nullable: true }) external(@Root() u: User, @Ctx() ctx: RequestCtx): boolean | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? u.external : null;
  }

  @FieldResolver(() => [IdentityType], {
    nullable: true,
    description: 'Accounts at external authentication providers. Only for the user themself and administrators.',
  })
  @MaxItems(IDENTITIES_MAX)
  identities(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<IdentityView[]> | null {
    return userPolicy.canSeePrivateUserFields(ctx.user, u.id) ? ctx.loaders.userIdentities.load(u.id) : null;
  }
}
