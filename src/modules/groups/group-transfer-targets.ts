import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../core/auth/guards';
import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevel, policy } from '../access';
import { namespacePolicy, parentOf, type Namespace } from '../namespaces';
import { listGroups, listGroupsBatched, memberTreeAt } from './group-list.query';
import { GroupOrderBy } from './group.inputs';
import { GroupPage, GroupType } from './group.type';

/**
 * The groups a group may move under (GitLab's AcceptingGroupTransfersFinder), as a predicate on `n` for
 * the group `groupId` names (an id, or a batch key): those where the caller is Owner (directly or above;
 * every group for an administrator), less the group's own subtree and its parent. GitLab also offers the
 * groups shared at Owner level with the caller's groups; shares grant no access here
 * (docs/gitlab-compatibility.md, "Groups"), so those are not the caller's to move into.
 */
function transferTargetMatch(user: CurrentUser, groupId: string): string {
  const notUnder = [`not (n.traversal_ids @> array[${groupId}]::int[])`, `n.id is distinct from ${parentOf(groupId)}`];
  if (policy.isAdmin(user)) return notUnder.join(' and ');
  return [memberTreeAt(Number(user.id), AccessLevel.OWNER), ...notUnder].join(' and ');
}

/** The search shared by REST's transfer locations and `Group.transferTargets`. */
@ArgsType()
export class TransferTargetsArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).',
  })
  search?: string;
}

/** GET /groups/:id/transfer_locations: the targets of one group the caller owns, by path (page/per_page). */
export function transferTargetsOf(
  ctx: RequestCtx,
  group: Namespace,
  args: TransferTargetsArgs,
): Promise<Page<Namespace>> {
  const match = transferTargetMatch(requireUser(ctx), String(group.id));
  return listGroups(ctx, { ...args, allAvailable: true, orderBy: GroupOrderBy.PATH }, { match });
}

export const groupTransferTargetLoaders = (ctx: RequestCtx) => ({
  /** `Group.transferTargets` of a page of groups: one count and one page statement per argument set. */
  groupTransferTargets: perParentPages<TransferTargetsArgs, Namespace>((args, ids) =>
    listGroupsBatched(
      ctx,
      { search: args.search, orderBy: GroupOrderBy.PATH },
      { match: transferTargetMatch(requireUser(ctx), 'page_keys.k') },
      ids,
      args,
    ),
  ),
});
type GroupTransferTargetLoaders = ReturnType<typeof groupTransferTargetLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupTransferTargetLoaders {}
}

@Resolver(() => GroupType)
export class GroupTransferTargetsResolver {
  /** The parent is already visible; the caller's levels load in one batch, the lists in one round trip. */
  @FieldResolver(() => GroupPage, {
    nullable: true,
    description:
      "Groups the current user can move this group under, by path (ours, modelled on GitLab's `Project.forkTargets`): the groups they own, less this group, its subgroups and its parent; every other group for an administrator. Null unless the caller may administer this group.",
  })
  async transferTargets(
    @Root() g: Namespace,
    @Args() args: TransferTargetsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Namespace> | null> {
    if (!ctx.user) return null;
    if (!policy.isAdmin(ctx.user) && !namespacePolicy.canAdminGroup(ctx.user, await ctx.loaders.groupLevel.load(g.id)))
      return null;
    return ctx.loaders.groupTransferTargets.load({ parentId: g.id, args: { ...args } });
  }
}
