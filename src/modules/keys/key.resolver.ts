import { UserIdArg, UserType, type User } from '../users';
import { KeyIdArg } from './key.type';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { policy } from '../access';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { SshKey } from './key.entity';
import { CreateSshKeyInput, UserSshKeysArgs } from './key.inputs';
import { sshKeyService as service } from './key.service';
import { SshKeyPage, SshKeyType, SshKeyWithUserType } from './key.type';

export function sshKeyLoaders(ctx: RequestCtx) {
  return {
    /** `User.sshKeys` across the users of a list: one round trip per argument set. */
    userSshKeyLists: perParentPages<PageArgs, SshKey>((args, ids) => service.listForUsers(ctx, ids, args)),
  };
}

type SshKeyLoaders = ReturnType<typeof sshKeyLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends SshKeyLoaders {}
}

/** A user's SSH keys as a field of the user (ours; GitLab's GraphQL has none): the rule of the REST lists. */
@Resolver(() => UserType)
export class UserSshKeysResolver {
  @FieldResolver(() => SshKeyPage, {
    nullable: true,
    description: "The user's SSH keys by id: for the user themself and administrators; null for others.",
  })
  @Reads('id')
  sshKeys(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<SshKey>> | null {
    if (!policy.isSelfOrAdmin(ctx.user, u.id)) return null;
    return ctx.loaders.userSshKeyLists.load({ parentId: u.id, args });
  }
}

/**
 * GitLab 10.3's SSH key routes (users.rb, keys.rb): a user's own keys, and any user's for administrators.
 * The root lists and lookups of a user's keys are REST's (internal view only): GraphQL clients read
 * `User.sshKeys` (`currentUser { sshKeys }`) and a key by its global id (`node(id)`).
 */
@Resolver(() => SshKeyType)
export class SshKeyResolver {
  @Internal()
  @Query(() => SshKeyPage, { description: "Administrators only: a user's SSH keys by id." })
  @Allow('admin', { scopes: ['read_user'] })
  userSshKeys(@Args() args: UserSshKeysArgs, @Ctx() ctx: RequestCtx): Promise<Page<SshKey>> {
    return service.listForUser(ctx, args.userId, args);
  }

  @Internal()
  @Query(() => SshKeyType, { description: "One of a user's SSH keys: public, as GitLab serves a user's keys." })
  @Allow('anonymous', { scopes: ['read_user'] })
  userSshKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('keyId', () => KeyIdArg) keyId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<SshKey> {
    return service.getForUser(ctx, userId, keyId);
  }

  @Internal()
  @Query(() => SshKeyPage, { description: "The authenticated user's SSH keys by id." })
  @Allow('user', { scopes: ['read_user'] })
  currentUserSshKeys(@Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<SshKey>> {
    return service.listOwn(ctx, args);
  }

  @Internal()
  @Query(() => SshKeyType, { description: 'One SSH key of the authenticated user.' })
  @Allow('user', { scopes: ['read_user'] })
  currentUserSshKey(@Arg('keyId', () => KeyIdArg) keyId: number, @Ctx() ctx: RequestCtx): Promise<SshKey> {
    return service.getOwn(ctx, keyId);
  }

  @Mutation(() => SshKeyType, { description: 'Administrators only: adds an SSH key to a user.' })
  @Allow('admin')
  createUserSshKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreateSshKeyInput) input: CreateSshKeyInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<SshKey> {
    return service.addForUser(ctx, userId, input);
  }

  @Mutation(() => Boolean, { description: "Administrators only: deletes one of a user's SSH keys." })
  @Allow('admin')
  deleteUserSshKey(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('keyId', () => KeyIdArg) keyId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.removeForUser(ctx, userId, keyId);
  }

  @Mutation(() => SshKeyType, { description: 'Adds an SSH key to the authenticated user.' })
  @Allow('user')
  createCurrentUserSshKey(
    @Arg('input', () => CreateSshKeyInput) input: CreateSshKeyInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<SshKey> {
    return service.addOwn(ctx, input);
  }

  @Mutation(() => Boolean, { description: "Deletes one of the authenticated user's SSH keys." })
  @Allow('user')
  deleteCurrentUserSshKey(@Arg('keyId', () => KeyIdArg) keyId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.removeOwn(ctx, keyId);
  }
}

/** The single-key read of administrators, with the key's owner. */
@Resolver(() => SshKeyWithUserType)
export class SshKeyWithUserResolver {
  @Query(() => SshKeyWithUserType, { description: 'Administrators only: any SSH key by id, with its user.' })
  @Allow('admin')
  sshKey(@Arg('id', () => KeyIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<SshKey> {
    return service.get(ctx, id);
  }

  @Query(() => SshKeyWithUserType, {
    description:
      'Administrators only: the SSH key with this fingerprint (MD5 colon hex, or SHA256:base64), with its user.',
  })
  @Allow('admin')
  sshKeyByFingerprint(@Arg('fingerprint', () => String) fingerprint: string, @Ctx() ctx: RequestCtx): Promise<SshKey> {
    return service.findByFingerprint(ctx, fingerprint);
  }

  @FieldResolver(() => UserType)
  async user(@Root() key: SshKey, @Ctx() ctx: RequestCtx): Promise<User> {
    const user = await ctx.loaders.user.load(key.userId);
    if (!user) throw new Error(`key ${key.id} has no user`);
    return user;
  }
}
