import { UserIdArg, UserType, type User } from '../users';
import { ImpersonationTokenIdArg } from './token.type';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { policy } from '../access';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { PersonalAccessToken } from './personal-access-token.entity';
import { CreateImpersonationTokenInput, ImpersonationTokensArgs, TokenStateArgs } from './token.inputs';
import { isActive, tokenService, type TokenView } from './token.service';
import { ImpersonationTokenPage, ImpersonationTokenType } from './token.type';

export function impersonationTokenLoaders(ctx: RequestCtx) {
  return {
    /** `User.impersonationTokens` across the users of a list: one round trip per argument set. */
    userImpersonationTokenLists: perParentPages<TokenStateArgs, PersonalAccessToken>((args, ids) =>
      tokenService.listForUsers(ctx, ids, args),
    ),
  };
}

type ImpersonationTokenLoaders = ReturnType<typeof impersonationTokenLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ImpersonationTokenLoaders {}
}

/** A user's impersonation tokens as a field of the user (ours): administrators only, null for others. */
@Resolver(() => UserType)
export class UserImpersonationTokensResolver {
  @FieldResolver(() => ImpersonationTokenPage, {
    nullable: true,
    description: "The user's impersonation tokens by id: for administrators; null for others.",
  })
  @Reads('id')
  impersonationTokens(
    @Root() u: User,
    @Args() args: TokenStateArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<PersonalAccessToken>> | null {
    return policy.isAdmin(ctx.user) ? ctx.loaders.userImpersonationTokenLists.load({ parentId: u.id, args }) : null;
  }
}

/**
 * GitLab 10.3's impersonation token routes. The list and lookup of a user's tokens are REST's root fields
 * (internal view only): GraphQL clients read `User.impersonationTokens` and a token by its global id.
 */
@Resolver(() => ImpersonationTokenType)
export class TokenResolver {
  @Internal()
  @Query(() => ImpersonationTokenPage, { description: 'Administrators only.' })
  @Allow('admin', { scopes: ['read_user'] })
  impersonationTokens(
    @Args() args: ImpersonationTokensArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<PersonalAccessToken>> {
    return tokenService.list(ctx, args);
  }

  @Internal()
  @Query(() => ImpersonationTokenType, { description: 'Administrators only.' })
  @Allow('admin', { scopes: ['read_user'] })
  impersonationToken(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('id', () => ImpersonationTokenIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<PersonalAccessToken> {
    return tokenService.get(ctx, userId, id);
  }

  @Mutation(() => ImpersonationTokenType, {
    description: 'Administrators only; the response carries the plain token once.',
  })
  @Allow('admin')
  createImpersonationToken(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreateImpersonationTokenInput) input: CreateImpersonationTokenInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<TokenView> {
    return tokenService.create(ctx, userId, input);
  }

  @Mutation(() => Boolean, { description: 'Administrators only; the token stops working at once.' })
  @Allow('admin')
  revokeImpersonationToken(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('id', () => ImpersonationTokenIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return tokenService.revoke(ctx, userId, id);
  }

  @FieldResolver(() => Boolean)
  active(@Root() t: PersonalAccessToken, @Ctx() ctx: RequestCtx): boolean {
    return isActive(ctx, t);
  }
}
