import { Arg, Args, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access';
import type { Namespace } from './namespace.entity';
import { NamespacesArgs } from './namespace.inputs';
import { namespaceService } from './namespace.service';
import { NamespaceExistenceType, NamespacePage, NamespaceType } from './namespace.type';
import type { Loaded } from '../../core/context/peek-loader';
import { namespacePolicy } from './namespace.policy';

@Resolver(() => NamespaceType)
export class NamespaceResolver {
  @Query(() => NamespacePage, { description: "The caller's namespaces." })
  @Allow('user')
  namespaces(@Args() args: NamespacesArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return namespaceService.list(ctx, args);
  }

  @Query(() => NamespaceType, { description: 'A namespace by full path (or id, as REST :id); 404 when not visible.' })
  @Allow('user')
  namespace(@Arg('fullPath', () => ID) fullPath: string, @Ctx() ctx: RequestCtx): Promise<Namespace> {
    return namespaceService.get(ctx, fullPath);
  }

  @Query(() => NamespaceExistenceType, {
    description:
      'Whether a top-level namespace (or a child of parentId) has this path, case-insensitively, with a free path to suggest.',
  })
  @Allow('user')
  namespaceExists(
    @Arg('path', () => String) path: string,
    @Arg('parentId', () => Int, { nullable: true, description: 'Only the children of this namespace.' })
    parentId: number | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<NamespaceExistenceType> {
    return namespaceService.exists(ctx, path, parentId);
  }

  @FieldResolver(() => NamespaceType, {
    nullable: true,
    description:
      'The parent group, when the caller may see it as namespace(fullPath) would; null for a top-level namespace.',
  })
  parent(@Root() ns: Namespace, @Ctx() ctx: RequestCtx): Loaded<Namespace | null> {
    if (ns.parentId === null || ns.parentId === undefined) return null;
    return ctx.loaders.visibleNamespace.get(ns.parentId);
  }

  /** Later GitLab: distinct members of the group and its subgroups, for callers who administer it. */
  @FieldResolver(() => Int, { nullable: true, description: 'Groups the caller administers only; null otherwise.' })
  async membersCountWithDescendants(@Root() ns: Namespace, @Ctx() ctx: RequestCtx): Promise<number | null> {
    if (ns.kind !== 'group') return null;
    const level = policy.isAdmin(ctx.user) ? 0 : await ctx.loaders.groupLevel.load(ns.id);
    return namespacePolicy.canAdminGroup(ctx.user, level) ? ctx.loaders.membersCountWithDescendants.load(ns.id) : null;
  }
}
