import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { UserIdArg } from '../users';
import type { PersonalAccessToken } from './personal-access-token.entity';
import { PersonalAccessTokenPage, PersonalAccessTokenType } from './personal-access-token.type';
import { personalAccessTokens as service } from './personal-access-tokens';
import { CreatePersonalAccessTokenInput, PersonalAccessTokensArgs } from './token.inputs';
import { isActive, type TokenView } from './token.service';
import { ImpersonationTokenIdArg as TokenIdArg } from './token.type';

const EXPIRES = { nullable: true, description: 'YYYY-MM-DD; default one week from today.' };

/** Later GitLab's personal access tokens API (docs/rest.md#personal-access-tokens). */
@Resolver(() => PersonalAccessTokenType)
export class PersonalAccessTokenResolver {
  @Query(() => PersonalAccessTokenPage, {
    description: "Administrators: every token (userId: one user's); others: their own personal access tokens.",
  })
  @Allow('user', { scopes: ['read_user'] })
  personalAccessTokens(
    @Args() args: PersonalAccessTokensArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<PersonalAccessToken>> {
    return service.list(ctx, args);
  }

  @Query(() => PersonalAccessTokenType, { description: 'A token the caller may manage.' })
  @Allow('user', { scopes: ['read_user'] })
  personalAccessToken(@Arg('id', () => TokenIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<PersonalAccessToken> {
    return service.get(ctx, id);
  }

  @Query(() => PersonalAccessTokenType, { description: 'The token that authenticates this request.' })
  @Allow('user', { scopes: ['read_user'] })
  currentPersonalAccessToken(@Ctx() ctx: RequestCtx): Promise<PersonalAccessToken> {
    return service.current(ctx);
  }

  @Mutation(() => Boolean, { description: 'Revokes a token the caller may manage; it stops working at once.' })
  @Allow('user')
  revokePersonalAccessToken(@Arg('id', () => TokenIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.revoke(ctx, id);
  }

  @Mutation(() => Boolean, { description: 'Revokes the token that authenticates this request.' })
  @Allow('user', { scopes: ['read_user'] })
  revokeCurrentPersonalAccessToken(@Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.revokeCurrent(ctx);
  }

  @Mutation(() => PersonalAccessTokenType, {
    description: 'Revokes a token the caller may manage and answers its replacement (same name and scopes) once.',
  })
  @Allow('user')
  rotatePersonalAccessToken(
    @Arg('id', () => TokenIdArg) id: number,
    @Arg('expiresAt', () => String, EXPIRES) expiresAt: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<TokenView> {
    return service.rotate(ctx, id, expiresAt);
  }

  @Mutation(() => PersonalAccessTokenType, {
    description: 'Revokes the token of this request and answers its replacement once.',
  })
  @Allow('user')
  rotateCurrentPersonalAccessToken(
    @Arg('expiresAt', () => String, EXPIRES) expiresAt: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<TokenView> {
    return service.rotateCurrent(ctx, expiresAt);
  }

  @Mutation(() => PersonalAccessTokenType, {
    description: 'Administrators only: a personal access token for a user; the answer carries its value once.',
  })
  @Allow('admin')
  createUserPersonalAccessToken(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreatePersonalAccessTokenInput) input: CreatePersonalAccessTokenInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<TokenView> {
    return service.createFor(ctx, userId, input);
  }

  @FieldResolver(() => Boolean)
  active(@Root() t: PersonalAccessToken, @Ctx() ctx: RequestCtx): boolean {
    return isActive(ctx, t);
  }
}
