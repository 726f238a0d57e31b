import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { PersonalAccessToken } from './personal-access-token.entity';
import { CreateImpersonationTokenInput, ImpersonationTokensArgs } from './token.inputs';
import { isActive, tokenService, type TokenView } from './token.service';
import { ImpersonationTokenPage, ImpersonationTokenType } from './token.type';

@Resolver(() => ImpersonationTokenType)
export class TokenResolver {
  @Query(() => ImpersonationTokenPage, { description: 'Administrators only.' })
  impersonationTokens(@Args() args: ImpersonationTokensArgs, @Ctx() ctx: RequestCtx): Promise<Page<PersonalAccessToken>> {
    return tokenService.list(ctx, args);
  }

  @Query(() => ImpersonationTokenType, { description: 'Administrators only.' })
  impersonationToken(@Arg('userId', () => Int) userId: number, @Arg('id', () => Int) id: number, @Ctx() ctx: RequestCtx): Promise<PersonalAccessToken> {
    return tokenService.get(ctx, userId, id);
  }

  @Mutation(() => ImpersonationTokenType, { description: 'Administrators only; the response carries the plain token once.' })
  createImpersonationToken(
    @Arg('userId', () => Int) userId: number,
    @Arg('input', () => CreateImpersonationTokenInput) input: CreateImpersonationTokenInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<TokenView> {
    return tokenService.create(ctx, userId, input);
  }

  @Mutation(() => Boolean, { description: 'Administrators only; the token stops working at once.' })
  revokeImpersonationToken(@Arg('userId', () => Int) userId: number, @Arg('id', () => Int) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return tokenService.revoke(ctx, userId, id);
  }

  @FieldResolver(() => Boolean)
  active(@Root() t: PersonalAccessToken, @Ctx() ctx: RequestCtx): boolean {
    return isActive(ctx, t);
  }
}
