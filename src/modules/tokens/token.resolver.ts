import { UserIdArg } from '../users';
import { ImpersonationTokenIdArg } from './token.type';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { PersonalAccessToken } from './personal-access-token.entity';
import { CreateImpersonationTokenInput, ImpersonationTokensArgs } from './token.inputs';
import { isActive, tokenService, type TokenView } from './token.service';
import { ImpersonationTokenPage, ImpersonationTokenType } from './token.type';

@Resolver(() => ImpersonationTokenType)
export class TokenResolver {
  @Query(() => ImpersonationTokenPage, { description: 'Administrators only.' })
  @Allow('admin', { scopes: ['read_user'] })
  impersonationTokens(
    @Args() args: ImpersonationTokensArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<PersonalAccessToken>> {
    return tokenService.list(ctx, args);
  }

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
