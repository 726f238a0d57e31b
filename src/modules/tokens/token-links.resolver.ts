import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { User } from '../users';
import { UserType } from '../users';
import type { PersonalAccessToken } from './personal-access-token.entity';
import { ImpersonationTokenType } from './token.type';
import type { Loaded } from '../../core/context/peek-loader';

/** An impersonation token's user (an object link), batched (tokens are listed for administrators only). */
@Resolver(() => ImpersonationTokenType)
export class TokenLinksResolver {
  @FieldResolver(() => UserType, { nullable: true, description: 'The user the token acts as.' })
  user(@Root() t: PersonalAccessToken, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    return ctx.loaders.user.get(t.userId);
  }
}
