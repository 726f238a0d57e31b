import { UserIdArg, UserType, type User } from '../users';
import { GpgKeyIdArg } from './gpg-key.type';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { pageItemsSelect } from '../../core/graphql/selection';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { policy } from '../access';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { GpgKey } from './gpg-key.entity';
import { CreateGpgKeyInput, UserGpgKeysArgs } from './gpg-key.inputs';
import { gpgKeyService as service } from './gpg-key.service';
import { GpgKeyPage, GpgKeyType } from './gpg-key.type';

export function gpgKeyLoaders(ctx: RequestCtx) {
  return {
    /** `User.gpgKeys` across the users of a list: one round trip per argument set (and key column choice). */
    userGpgKeyLists: perParentPages<PageArgs & { withKey: boolean }, GpgKey>(({ withKey, ...args }, ids) =>
      service.listForUsers(ctx, ids, args, { withKey }),
    ),
  };
}

type GpgKeyLoaders = ReturnType<typeof gpgKeyLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GpgKeyLoaders {}
}

/** A user's GPG keys as a field of the user (ours; GitLab's GraphQL has none): the rule of the REST lists. */
@Resolver(() => UserType)
export class UserGpgKeysResolver {
  @FieldResolver(() => GpgKeyPage, {
    nullable: true,
    description: "The user's GPG keys, oldest first: for the user themself and administrators; null for others.",
  })
  @Reads('id')
  gpgKeys(
    @Root() u: User,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<GpgKey>> | null {
    if (!policy.isSelfOrAdmin(ctx.user, u.id)) return null;
    return ctx.loaders.userGpgKeyLists.load({
      parentId: u.id,
      args: { ...args, withKey: pageItemsSelect(info, 'key') },
    });
  }
}

/**
 * GitLab 10.3's GPG keys (lib/api/users.rb): a user's, for administrators, and the caller's own.
 * The root lists and lookups are REST's (internal view only): GraphQL clients read `User.gpgKeys`
 * (`currentUser { gpgKeys }`) and a key by its global id.
 * Reads also accept read_user tokens (the users API's `allow_access_with_scope :read_user` on GET).
 * The administrators' routes check the role in the service, after the parameters, as GitLab does:
 * its users resource authenticates writes first (`authenticate_non_get!`), reads only in the endpoint.
 */
@Resolver(() => GpgKeyType)
export class GpgKeyResolver {
  @Internal()
  @Query(() => GpgKeyPage, { description: "Administrators only. A user's GPG keys, oldest first." })
  @Allow('anonymous', { scopes: ['read_user'] })
  userGpgKeys(
    @Args() args: UserGpgKeysArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<GpgKey>> {
    return service.list(ctx, args, { withKey: pageItemsSelect(info, 'key') });
  }

  @Internal()
  @Query(() => GpgKeyType, { description: "One of a user's GPG keys: public, as GitLab serves it." })
  @Allow('anonymous', { scopes: ['read_user'] })
  userGpgKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('keyId', () => GpgKeyIdArg) keyId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<GpgKey> {
    return service.getForUser(ctx, userId, keyId);
  }

  @Mutation(() => GpgKeyType, { description: 'Administrators only. Adds a GPG public key to a user.' })
  @Allow('user')
  createUserGpgKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreateGpgKeyInput) input: CreateGpgKeyInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<GpgKey> {
    return service.create(ctx, input, userId);
  }

  @Mutation(() => Boolean, { description: "Administrators only. Deletes a user's GPG key." })
  @Allow('user')
  deleteUserGpgKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('keyId', () => GpgKeyIdArg) keyId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.remove(ctx, keyId, userId);
  }

  @Mutation(() => Boolean, { description: "Administrators only. Revokes a user's GPG key (the key is removed)." })
  @Allow('user')
  revokeUserGpgKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('keyId', () => GpgKeyIdArg) keyId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.revoke(ctx, keyId, userId);
  }

  @Internal()
  @Query(() => GpgKeyPage, { description: "The caller's GPG keys, oldest first." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserGpgKeys(
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<GpgKey>> {
    return service.list(ctx, args, { withKey: pageItemsSelect(info, 'key') });
  }

  @Internal()
  @Query(() => GpgKeyType, { description: "One of the caller's GPG keys." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserGpgKey(@Arg('keyId', () => GpgKeyIdArg) keyId: number, @Ctx() ctx: RequestCtx): Promise<GpgKey> {
    return service.get(ctx, keyId);
  }

  @Mutation(() => GpgKeyType, { description: 'Adds a GPG public key to the caller.' })
  @Allow('user')
  createCurrentUserGpgKey(
    @Arg('input', () => CreateGpgKeyInput) input: CreateGpgKeyInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<GpgKey> {
    return service.create(ctx, input);
  }

  @Mutation(() => Boolean, { description: "Deletes one of the caller's GPG keys." })
  @Allow('user')
  deleteCurrentUserGpgKey(@Arg('keyId', () => GpgKeyIdArg) keyId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.remove(ctx, keyId);
  }

  @Mutation(() => Boolean, { description: "Revokes one of the caller's GPG keys (the key is removed)." })
  @Allow('user')
  revokeCurrentUserGpgKey(@Arg('keyId', () => GpgKeyIdArg) keyId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.revoke(ctx, keyId);
  }
}
