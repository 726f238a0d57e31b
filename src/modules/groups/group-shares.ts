import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Resolver, Root, FieldResolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { requireUser } from '../../core/auth/guards';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Loaded } from '../../core/context/peek-loader';
import { PeekLoader } from '../../core/context/peek-loader';
import { claimForDelete } from '../../core/db/delete-claim';
import { sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { recordAudit } from '../../core/events/audit';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import { idArgOf } from '../../core/graphql/global-id';
import { Reads } from '../../core/graphql/reads';
import { MaxItems } from '../../core/graphql/list-bound';
import { assertOptionalDate } from '../../core/params/coerce';
import { AccessLevel, activeMembership, intArray } from '../access';
import { findNamespace, joinNamespace, namespacePolicy, type Namespace } from '../namespaces';
import { groupVisibility, SharedWithGroupType } from '../projects';
import { GroupGroupLink } from './group-group-link.entity';
import { groupService } from './group.service';
import { GroupType } from './group.type';

// Groups shared with groups (GitLab's group_group_links; doc/api/groups.md "Share groups with groups").
// What a share grants here: it is recorded and listed (the shared group's `shared_with_groups`); access
// checks do not read it (docs/gitlab-compatibility.md, "Groups").

/** Gitlab::Access.all_values: Guest to Owner. */
const GROUP_SHARE_LEVELS: readonly number[] = [
  AccessLevel.GUEST,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MASTER,
  AccessLevel.OWNER,
];

/** At most this many groups in a group's `shared_with_groups`, the first shares made (as projects' lists). */
export const GROUP_SHARES_MAX = 100;

@InputType('ShareGroupInput')
export class ShareGroupInput {
  @Field(() => idArgOf('Group'), { description: 'The group to share with.' }) groupId!: number;
  @Field(() => Int, { description: '10, 20, 30, 40 or 50.' }) groupAccess!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

export interface GroupShareView {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccessLevel: number;
  expiresAt: string | null;
}

/** `shared_with_groups` of many groups in one query: the invited groups the caller may read, oldest share first. */
async function loadGroupShares(ctx: RequestCtx, ids: readonly number[]): Promise<GroupShareView[][]> {
  const rows = await sqlRows<{
    shared_group_id: number;
    group_id: number;
    name: string;
    full_path: string;
    group_access: number;
    expires_at: string | null;
  }>(
    ctx.em,
    `select k.id as shared_group_id, s.* from unnest(${intArray(ids)}) k(id) cross join lateral (
       select l.shared_with_group_id as group_id, g.name, g.full_path, l.group_access,
              to_char(l.expires_at, 'YYYY-MM-DD') as expires_at
         from group_group_links l ${joinNamespace('l.shared_with_group_id', 'g')}
        where l.shared_group_id = k.id and ${await groupVisibility(ctx, 'g')} order by l.id limit ${GROUP_SHARES_MAX}) s`,
  );
  const byGroup = new Map<number, GroupShareView[]>();
  for (const r of rows) {
    const list = byGroup.get(r.shared_group_id) ?? [];
    list.push({
      groupId: r.group_id,
      groupName: r.name,
      groupFullPath: r.full_path,
      groupAccessLevel: r.group_access,
      expiresAt: r.expires_at,
    });
    byGroup.set(r.shared_group_id, list);
  }
  return ids.map((id) => byGroup.get(id) ?? []);
}

/**
 * Rows `group_id, access_cap`: the groups invited (active shares) into one of the groups `ancestry`
 * holds (GitLab's `Group.shared_into_ancestors`: a group and its ancestors), each with the share's
 * access: whose members GitLab's SHARED_INTO_ANCESTORS lists, at most at that level. Through the
 * `group_group_links_shared_pair (shared_group_id, …)` index.
 */
export const groupsSharedIntoRows = (ancestry: string) =>
  `select l.shared_with_group_id as group_id, l.group_access as access_cap from group_group_links l
    where l.shared_group_id = any(${ancestry}) and ${activeMembership('l')}`;

export const groupShareLoaders = (ctx: RequestCtx) => ({
  groupShares: new PeekLoader<number, GroupShareView[]>((ids) => loadGroupShares(ctx, ids)),
});
type GroupShareLoaders = ReturnType<typeof groupShareLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends GroupShareLoaders {}
}

/** The audit entry of a share change: the shared group is the entity, the invited group the target (GitLab EE). */
const shareAudit = (shared: Namespace, invited: Namespace, message: string) => ({
  entityType: 'Group',
  entityId: shared.id,
  entityPath: shared.fullPath,
  targetType: 'Group',
  targetId: invited.id,
  targetDetails: invited.fullPath,
  action: { customMessage: message },
});

/**
 * POST /groups/:id/share (Groups::GroupLinks::CreateService): an Owner of the group (GitLab's
 * admin_group_member) shares it with a group they may read. GitLab answers both refusals with 404
 * "Not Found"; a second share of the pair is 409 with the model's message.
 */
async function share(ctx: RequestCtx, idOrPath: string, input: ShareGroupInput): Promise<Namespace> {
  if (!GROUP_SHARE_LEVELS.includes(input.groupAccess)) throw ParamError.notInSet('group_access');
  assertOptionalDate('expires_at', input.expiresAt);
  const user = requireUser(ctx);
  const group = await groupService.findVisible(ctx, idOrPath);
  const invited = await groupService.findVisible(ctx, input.groupId).catch((e: unknown) => {
    if (e instanceof NotFoundError) return null;
    throw e;
  });
  if (!invited) throw new NotFoundError('Group');
  if (!namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(group.id)))
    throw new NotFoundError(undefined, 'Not Found');
  const now = ctx.clock.now();
  const link = ctx.em.create(GroupGroupLink, {
    sharedGroupId: group.id,
    sharedWithGroupId: invited.id,
    groupAccess: input.groupAccess,
    expiresAt: input.expiresAt ?? null,
    createdAt: now,
    updatedAt: now,
  });
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        em.persist(link);
        await em.flush();
        await recordAudit(ctx, em, [shareAudit(group, invited, `Invited ${invited.name} to the group ${group.name}`)]);
      }),
    () => new ConflictError('Shared group The group has already been shared with this group'),
  );
  ctx.loaders.groupShares.clearAll();
  return group;
}

/** DELETE /groups/:id/share/:group_id: an Owner removes the share (404 Group Link when there is none). */
async function unshare(ctx: RequestCtx, idOrPath: string, groupId: number): Promise<boolean> {
  const user = requireUser(ctx);
  const group = await groupService.findVisible(ctx, idOrPath);
  if (!namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(group.id))) throw new ForbiddenError();
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, {
      table: 'group_group_links',
      where: 'shared_group_id = ? and shared_with_group_id = ?',
      params: [group.id, groupId],
      missing: () => new NotFoundError('Group Link'),
    });
    await em.nativeDelete(GroupGroupLink, { sharedGroupId: group.id, sharedWithGroupId: groupId });
    // The link's foreign key holds the invited group until commit.
    const invited = await findNamespace(em, groupId);
    if (invited)
      await recordAudit(ctx, em, [shareAudit(group, invited, `Removed ${invited.name} from the group ${group.name}`)]);
  });
  ctx.loaders.groupShares.clearAll();
  return true;
}

export const groupShareService = { share, unshare };

@Resolver(() => GroupType)
export class GroupSharesResolver {
  @Mutation(() => GroupType, { description: 'Shares a group with another group (Owner of the shared group).' })
  @Allow('user')
  shareGroup(
    @Arg('id', () => ID, { description: 'Group id, full path or global id.' }) id: string,
    @Arg('input', () => ShareGroupInput) input: ShareGroupInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return share(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Stops sharing a group with another group.' })
  @Allow('user')
  unshareGroup(
    @Arg('id', () => ID, { description: 'Group id, full path or global id.' }) id: string,
    @Arg('groupId', () => Int, { description: 'The invited group.' }) groupId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return unshare(ctx, id, groupId);
  }

  @FieldResolver(() => [SharedWithGroupType], {
    description: `The groups this group is shared with that the caller may see, the first ${GROUP_SHARES_MAX} shares.`,
  })
  @Reads('id')
  @MaxItems(GROUP_SHARES_MAX)
  sharedWithGroups(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Loaded<GroupShareView[]> {
    return ctx.loaders.groupShares.get(g.id);
  }
}
