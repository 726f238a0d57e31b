import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { policy } from '../access';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { CreateEmailInput, EmailIdArg, EmailPage, EmailType, emailService as service, type Email } from '../emails';
import { primaryEmailInUse } from './user-sql';
import { userService } from './user.service';
import type { User } from './user.entity';
import { UserIdArg, UserType } from './user.type';

@ArgsType()
export class UserEmailsArgs extends PageArgs {
  @Field(() => UserIdArg) userId!: number;
}

export function userEmailLoaders(ctx: RequestCtx) {
  return {
    /** `User.emails` across the users of a list: one round trip per argument set. */
    userEmailLists: perParentPages<PageArgs, Email>((args, ids) => service.listForUsers(ctx, ids, args)),
  };
}

type UserEmailLoaders = ReturnType<typeof userEmailLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserEmailLoaders {}
}

/** GitLab's `User.emails`, under the rule of the REST lists: the user themself and administrators. */
@Resolver(() => UserType)
export class UserEmailsFieldResolver {
  @FieldResolver(() => EmailPage, {
    nullable: true,
    description:
      "The user's secondary e-mail addresses by id (the primary one is `email`): for the user themself and administrators; null for others.",
  })
  @Reads('id')
  emails(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<Email>> | null {
    if (!policy.isSelfOrAdmin(ctx.user, u.id)) return null;
    return ctx.loaders.userEmailLists.load({ parentId: u.id, args });
  }
}

/**
 * GitLab 10.3's secondary e-mail routes (lib/api/users.rb; storage and rules: the emails module): a user's
 * own addresses, and any user's for administrators. The root lists and lookups are REST's (internal view
 * only): GraphQL clients read `User.emails` (`currentUser { emails }`) and an address by its global id.
 */
@Resolver(() => EmailType)
export class UserEmailsResolver {
  @Internal()
  @Query(() => EmailPage, { description: "Administrators only: a user's secondary e-mail addresses by id." })
  @Allow('admin', { scopes: ['read_user'] })
  async userEmails(@Args() args: UserEmailsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Email>> {
    return service.listForUser(ctx, await userService.get(ctx, args.userId), args);
  }

  @Internal()
  @Query(() => EmailPage, { description: "The authenticated user's secondary e-mail addresses by id." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserEmails(@Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<Email>> {
    return service.listOwn(ctx, args);
  }

  @Internal()
  @Query(() => EmailType, { description: 'One secondary e-mail address of the authenticated user.' })
  @Allow('user', { scopes: ['read_user'] })
  currentUserEmail(@Arg('emailId', () => EmailIdArg) emailId: number, @Ctx() ctx: RequestCtx): Promise<Email> {
    return service.getOwn(ctx, emailId);
  }

  @Mutation(() => EmailType, {
    description: 'Administrators only: adds a secondary e-mail address to a user (unconfirmed; no mail is sent).',
  })
  @Allow('admin')
  async createUserEmail(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreateEmailInput) input: CreateEmailInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Email> {
    return service.addForUser(ctx, await userService.get(ctx, userId), input, primaryEmailInUse());
  }

  @Mutation(() => Boolean, { description: "Administrators only: deletes one of a user's secondary e-mail addresses." })
  @Allow('admin')
  async deleteUserEmail(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('emailId', () => EmailIdArg) emailId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.removeForUser(ctx, await userService.get(ctx, userId), emailId);
  }

  @Mutation(() => EmailType, {
    description: 'Adds a secondary e-mail address to the authenticated user (unconfirmed; no mail is sent).',
  })
  @Allow('user')
  createCurrentUserEmail(
    @Arg('input', () => CreateEmailInput) input: CreateEmailInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Email> {
    return service.addOwn(ctx, input, primaryEmailInUse());
  }

  @Mutation(() => Boolean, { description: "Deletes one of the authenticated user's secondary e-mail addresses." })
  @Allow('user')
  deleteCurrentUserEmail(@Arg('emailId', () => EmailIdArg) emailId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.removeOwn(ctx, emailId);
  }
}
