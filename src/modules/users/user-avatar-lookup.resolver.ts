import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { AvatarLookupType, userAvatarLookup } from './user-avatar-lookup';

/** The avatar URL for an e-mail address (GitLab's avatar API). */
@Resolver()
export class UserAvatarLookupResolver {
  @Query(() => AvatarLookupType, {
    description: "The avatar URL for an e-mail address: its user's uploaded avatar, else Gravatar's URL.",
  })
  @Allow('anonymous')
  avatarLookup(
    @Arg('email', () => String) email: string,
    @Arg('size', () => Int, { nullable: true, description: 'Pixels (Gravatar only); default 40.' })
    size: number | null | undefined,
    @Ctx() ctx: RequestCtx,
  ): Promise<AvatarLookupType> {
    return userAvatarLookup.lookup(ctx, email, size);
  }
}
