import { Args, ArgsType, Arg, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { requireUser } from '../../core/auth/guards';
import type { RequestCtx } from '../../core/context/request-ctx';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../core/errors/domain-errors';
import { idArgOf } from '../../core/graphql/global-id';
import type { Page } from '../../core/pagination/page';
import { Internal } from '../../core/graphql/internal';
import { AccessLevel, addGroupMember, groupOwners } from '../access';
import {
  capSubgroupVisibility,
  fullPathTakenByOther,
  lockAncestry,
  lockShareWithGroupBelow,
  lockSubtrees,
  moveSubtree,
  namespacePolicy,
  type Namespace,
} from '../namespaces';
import { capProjectVisibilityUnder, forgetAccess, projectPathTakenIn } from '../projects';
import { groupMemberAdded } from './group.events';
import { TransferTargetsArgs, transferTargetsOf } from './group-transfer-targets';
import { groupPolicy } from './group.policy';
import { groupService } from './group.service';
import { GroupPage, GroupType } from './group.type';
import { sqlRows } from '../../core/db/sql';
import { MSG } from '../../core/errors/messages';
import { TOP_LEVEL_RESERVED } from '../../core/validation/path-rules';

// POST /groups/:id/transfer and GET /groups/:id/transfer_locations (later GitLab; doc/api/groups.md,
// app/services/groups/transfer_service.rb, app/finders/groups/accepting_group_transfers_finder.rb).
// Refusals are 400 {"message":"Transfer failed: <reason>"} with GitLab's reasons.
export const GROUP_TRANSFER_MESSAGES = {
  alreadyRoot: 'Group is already a root group.',
  sameParent: 'Group is already associated to the parent group.',
  noPermission: "You don't have enough permissions.",
  samePath: 'The parent group already has a subgroup or a project with the same path.',
  toSubgroup: 'Cannot transfer group to one of its subgroup.',
} as const;
const refused = (reason: string) => new BadRequestError(`Transfer failed: ${reason}`);

/** Whether the parent (or the top level) already holds a namespace or a project with the group's path (case-insensitive). */
async function pathTaken(ctx: RequestCtx, group: Namespace, parent: Namespace | null): Promise<boolean> {
  const fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
  const [row] = await sqlRows<{ taken: boolean }>(ctx.em, `select ${fullPathTakenByOther()} as taken`, [fullPath, 0]);
  if (row?.taken) return true;
  return parent ? projectPathTakenIn(ctx.em, parent.id, group.path) : false;
}

async function transfer(ctx: RequestCtx, idOrPath: string, parentRef: number | null | undefined): Promise<Namespace> {
  const user = requireUser(ctx);
  const group = await groupService.findVisible(ctx, idOrPath);
  if (!namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(group.id))) throw new ForbiddenError();
  const parent = parentRef != null ? await groupService.findVisible(ctx, parentRef) : null;
  if (!parent && group.parentId == null) throw refused(GROUP_TRANSFER_MESSAGES.alreadyRoot);
  if (parent && parent.id === group.parentId) throw refused(GROUP_TRANSFER_MESSAGES.sameParent);
  const allowed = parent
    ? namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(parent.id))
    : groupPolicy.canCreateTopLevelGroup(user);
  if (!allowed) throw refused(GROUP_TRANSFER_MESSAGES.noPermission);
  if (await pathTaken(ctx, group, parent)) throw refused(GROUP_TRANSFER_MESSAGES.samePath);
  // A subgroup's path may be a name reserved at the top level: GitLab's save! then fails validation.
  if (!parent && TOP_LEVEL_RESERVED.has(group.path.toLowerCase()))
    throw refused(`Validation failed: Path ${MSG.reserved(group.path)}`);
  if (parent && parent.traversalIds.includes(group.id)) throw refused(GROUP_TRANSFER_MESSAGES.toSubgroup);
  const old = { fullPath: group.fullPath, fullName: group.fullName };
  const move = () =>
    ctx.em.transactional(async (em) => {
      // Both ancestries and the moving subtree stay locked until commit (no rename, create or move between).
      const from = await lockAncestry(em, group.id);
      const to = parent ? await lockAncestry(em, parent.id) : null;
      await lockSubtrees(em, [group.id]);
      const self = from.get(group.id);
      const above = parent ? to?.get(parent.id) : undefined;
      if (!self || (parent && !above)) throw new NotFoundError('Group');
      if (above?.traversal_ids.includes(group.id)) throw refused(GROUP_TRANSFER_MESSAGES.toSubgroup);
      old.fullPath = self.full_path;
      old.fullName = self.full_name;
      // GitLab: under a more private parent, the group, its subgroups and their projects take its level.
      if (parent && parent.visibilityLevel < group.visibilityLevel) {
        await capSubgroupVisibility(em, group.id, parent.visibilityLevel);
        await capProjectVisibilityUnder(em, group.id, parent.visibilityLevel);
        group.visibilityLevel = parent.visibilityLevel;
      }
      group.parentId = parent?.id ?? null;
      group.updatedAt = ctx.clock.now();
      // A subgroup of a share-locked group is locked too.
      if (parent?.shareWithGroupLock) group.shareWithGroupLock = true;
      await em.flush();
      const now = {
        traversalIds: above ? above.traversal_ids : [],
        fullPath: above ? `${above.full_path}/${group.path}` : group.path,
        fullName: above ? `${above.full_name} / ${group.name}` : group.name,
      };
      await moveSubtree(em, group.id, old, now);
      if (group.shareWithGroupLock) await lockShareWithGroupBelow(em, group.id);
      Object.assign(group, {
        fullPath: now.fullPath,
        fullName: now.fullName,
        traversalIds: [...now.traversalIds, group.id],
      });
      await recordAudit(
        ctx,
        em,
        changes(
          {
            entityType: 'Group',
            entityId: group.id,
            entityPath: group.fullPath,
            targetType: 'Group',
            targetId: group.id,
            targetDetails: group.fullPath,
          },
          [{ name: 'full_path', from: old.fullPath, to: group.fullPath }],
        ),
      );
      // GitLab's ensure_ownership: a group made top-level without a direct Owner gets the caller as one.
      if (!parent && !(await hasDirectOwner(em, group.id, user.id))) {
        const at = ctx.clock.now();
        addGroupMember(em, group.id, { userId: user.id, accessLevel: AccessLevel.OWNER, expiresAt: null, now: at });
        await em.flush();
        await emitSystemEvents(ctx, em, () => [groupMemberAdded(group, user, AccessLevel.OWNER, at)]);
      }
    });
  await onUniqueViolation(move, () => refused(GROUP_TRANSFER_MESSAGES.samePath));
  forgetAccess(ctx);
  ctx.loaders.namespace.clearAll();
  return group;
}

async function hasDirectOwner(em: RequestCtx['em'], groupId: number, userId: number): Promise<boolean> {
  const owners = await groupOwners(em, groupId, userId);
  return owners.isOwner || owners.others > 0;
}

/** GET /groups/:id/transfer_locations (internal view; GraphQL clients read `Group.transferTargets`). */
@ArgsType()
export class TransferLocationsArgs extends TransferTargetsArgs {
  @Field(() => ID, { description: 'Group id, full path or global id.' }) groupId!: string;
}

@Resolver()
export class GroupTransferResolver {
  @Mutation(() => GroupType, {
    description: 'Moves a group with its subgroups and projects under another group, or to the top level.',
  })
  @Allow('user')
  transferGroup(
    @Arg('id', () => ID, { description: 'Group id, full path or global id.' }) id: string,
    @Arg('targetId', () => idArgOf('Group'), {
      nullable: true,
      description: 'The new parent group; absent: the group becomes top-level.',
    })
    targetId: number | null | undefined,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return transfer(ctx, id, targetId);
  }

  /** Below Owner: 403 (`Group.transferTargets` answers null). */
  @Internal()
  @Query(() => GroupPage, { description: 'The groups a group can be moved under, by path.' })
  @Allow('user')
  async groupTransferLocations(@Args() args: TransferLocationsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    const { groupId, ...rest } = args;
    return transferTargetsOf(ctx, await groupService.findOwned(ctx, groupId), rest);
  }
}
