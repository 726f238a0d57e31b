import { claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { AccessLevel, addGroupMember, VISIBILITY_LEVEL, toVisibility } from '../access';
import { requireUser } from '../../core/auth/guards';
import { sqlRows, takenField } from '../../core/db/sql';
import { ForbiddenError, NotFoundError, SaveFailedError, ValidationError } from '../../core/errors/domain-errors';
import type { Page } from '../../core/pagination/page';
import { parseIdOrPath, type IdOrPath } from '../../core/params/parse-id-or-path';
import type { Project } from '../projects';
import { projectService, forgetAccess, groupVisibility } from '../projects';
import { defaultVisibilityLevel, visibilityRestriction } from '../application-settings';
import { gitlabGroupOrder, listGroups, type GroupOrder } from './group-list.query';
import { patchEntity, type PatchMapping } from '../../core/patch/patch-entity';
import {
  CreateGroupInput,
  UpdateGroupInput,
  type GroupAttributesInput,
  type GroupListArgs,
  type GroupsArgs,
} from './group.inputs';
import {
  beforeNamespacesRemoved,
  deleteNamespace,
  findGroupBy,
  findNamespace,
  groupClaim,
  lockAncestry,
  lockShareWithGroupBelow,
  maxSubgroupVisibility,
  newGroup,
  renameDescendants,
  type Namespace,
} from '../namespaces';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import {
  SUBGROUP_RESERVED,
  TOP_LEVEL_RESERVED,
  checkNameOrPath,
  isValidGroupName,
  isValidNamespacePath,
} from '../../core/validation/path-rules';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { avatarProblems, GROUP_AVATARS_EXIST_KEY, saveAvatar } from '../avatars';
import { longerThan } from '../../core/validation/char-length';
import { groupPolicy } from './group.policy';
import { namespacePolicy } from '../namespaces';
import { groupEvent, groupMemberAdded, subtreeGroupEvents } from './group.events';
import { maxProjectVisibilityIn, projectEvents, projectPathOrNameTakenIn, subtreeProjectIds } from '../projects';
import { avatarStored, groupAvatarExtra } from './group-avatar-files';

/** A group by id or full path that the caller may read; otherwise 404 "Group Not Found" (docs/gitlab-compatibility.md, "Groups"). */
async function findVisible(ctx: RequestCtx, idOrPath: string | number | IdOrPath): Promise<Namespace> {
  const ref = parseIdOrPath(idOrPath, ['Group']);
  if ('none' in ref) throw new NotFoundError('Group');
  const group = await findGroupBy(
    ctx.em,
    'id' in ref ? { id: ref.id } : { path: ref.path },
    await groupVisibility(ctx, 'n'),
    await groupAvatarExtra(ctx),
  );
  if (!group) throw new NotFoundError('Group');
  return group;
}

/** node(id)/nodes(ids): the groups among these ids the caller may read, through the links' `visibleGroup` loader. */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<Namespace[]> {
  return ctx.loaders.visibleGroup.loadPresent(ids.map(Number));
}

async function findOwned(ctx: RequestCtx, idOrPath: string | number): Promise<Namespace> {
  const user = requireUser(ctx);
  const group = await findVisible(ctx, idOrPath);
  if (!namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(group.id))) throw new ForbiddenError();
  return group;
}

/**
 * `groups`: GitLab's `sort` string orders the list when given (as adminGroups'), else REST's `orderBy` and
 * direction; GitLab's `ownedOnly` is REST's `owned`; `order` (GitLab's later sort values, `adminGroups(sort)`)
 * takes their place. With `parentPath`, the direct subgroups of a visible group; a parent the caller may
 * not see lists none.
 */
async function list(ctx: RequestCtx, args: GroupListArgs, order?: GroupOrder): Promise<Page<Namespace>> {
  const { sort } = args;
  // A spread, not a rest pattern (V8 copies a rest with excluded keys property by property): the list
  // reads `sort` as REST's direction and `owned` only; GitLab's names left beside them are not read.
  const listArgs = { ...args, sort: args.sortDirection, owned: args.owned || args.ownedOnly };
  const listOrder = order ?? (sort === undefined || sort === null ? undefined : gitlabGroupOrder(sort));
  if (args.parentPath === undefined || args.parentPath === null) return listGroups(ctx, listArgs, { order: listOrder });
  const parent = await findVisible(ctx, { path: args.parentPath }).catch((e: unknown) => {
    if (e instanceof NotFoundError) return null;
    throw e;
  });
  return listGroups(ctx, listArgs, { parentId: parent ? parent.id : 0, order: listOrder });
}

async function subgroups(ctx: RequestCtx, idOrPath: string, args: GroupsArgs): Promise<Page<Namespace>> {
  const parent = await findVisible(ctx, idOrPath);
  return listGroups(ctx, args, { parentId: parent.id });
}

/** GET /groups/:id/descendant_groups (later GitLab): the subgroups at any depth, filtered and ordered as subgroups. */
async function descendantGroups(ctx: RequestCtx, idOrPath: string, args: GroupsArgs): Promise<Page<Namespace>> {
  const parent = await findVisible(ctx, idOrPath);
  return listGroups(ctx, args, { ancestorId: parent.id });
}

const levelName = (level: number) => toVisibility(level).toLowerCase();

/** Input fields stored differently from how they are written. */
const STORED: PatchMapping<GroupAttributesInput> = {
  visibility: (v) => ({ visibilityLevel: VISIBILITY_LEVEL[v] }),
  avatar: 'skip',
};

/** The avatar's problems (checked with the other attributes), GitLab's `avatar` errors. */
function checkAvatar(input: GroupAttributesInput, bag: FieldErrorBag): void {
  for (const problem of input.avatar ? avatarProblems(input.avatar.filename, input.avatar.data) : [])
    bag.add('avatar', problem);
}

/** Stores the avatar in the write's transaction (its file name is read from the avatars module). */
async function storeAvatar(
  ctx: RequestCtx,
  em: RequestCtx['em'],
  group: Namespace,
  input: GroupAttributesInput,
): Promise<void> {
  if (!input.avatar) return;
  const filename = await saveAvatar(em, 'group', group.id, input.avatar);
  avatarStored(ctx, group, filename);
  // The first group avatar: this instance's lists probe for avatars from now on, the others' at commit.
  await ctx.cache.invalidate(em, GROUP_AVATARS_EXIST_KEY);
}

/** Name, path, description and visibility-vs-parent rules (docs/gitlab-compatibility.md, "Names and paths", "Groups"). */
function validate(group: Namespace, parent: Namespace | null, bag: FieldErrorBag): void {
  checkNameOrPath(bag, 'name', group.name, [isValidGroupName, MSG.groupName]);
  checkNameOrPath(
    bag,
    'path',
    group.path,
    [isValidNamespacePath, MSG.namespacePath],
    parent ? SUBGROUP_RESERVED : TOP_LEVEL_RESERVED,
  );
  if (longerThan(group.description, 255)) bag.add('description', MSG.tooLong);
  if (parent && group.visibilityLevel > parent.visibilityLevel) {
    bag.add(
      'visibility_level',
      `${levelName(group.visibilityLevel)} is not allowed since the parent group has a ${levelName(parent.visibilityLevel)} visibility.`,
    );
  }
}

async function create(ctx: RequestCtx, input: CreateGroupInput): Promise<Namespace> {
  const user = requireUser(ctx);
  let parent: Namespace | null = null;
  if (input.parentId != null) {
    parent = await findVisible(ctx, input.parentId);
    if (!namespacePolicy.canAdminGroup(user, await ctx.loaders.groupLevel.load(parent.id))) throw new ForbiddenError();
  } else if (!groupPolicy.canCreateTopLevelGroup(user)) {
    throw new ForbiddenError();
  }
  const now = ctx.clock.now();
  const group = newGroup({
    kind: 'group',
    parentId: parent?.id ?? null,
    createdAt: now,
    updatedAt: now,
  });
  patchEntity(group, input, CreateGroupInput, { ...STORED, parentId: 'skip' });
  if (input.visibility == null) group.visibilityLevel = await defaultVisibilityLevel(ctx, 'group');
  // A subgroup of a share-locked group is locked too (GitLab's lock holds for the subtree).
  if (parent?.shareWithGroupLock) group.shareWithGroupLock = true;
  const restricted = await visibilityRestriction(ctx, group.visibilityLevel);
  if (restricted) throw new SaveFailedError('Failed to save group', { visibility_level: [restricted] });
  group.fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
  group.fullName = parent ? `${parent.fullName} / ${group.name}` : group.name;
  const bag = new FieldErrorBag();
  validate(group, parent, bag);
  checkAvatar(input, bag);
  if (!bag.empty) throw new SaveFailedError('Failed to save group', bag.errors);
  const write = () =>
    ctx.em.transactional(async (em) => {
      if (parent) {
        // The parent's path as of now, held until commit (a concurrent rename waits or went first).
        const locked = (await lockAncestry(em, parent.id)).get(parent.id);
        if (!locked) throw new NotFoundError('Group');
        group.fullPath = `${locked.full_path}/${group.path}`;
        group.fullName = `${locked.full_name} / ${group.name}`;
        parent.traversalIds = locked.traversal_ids;
      }
      em.persist(group);
      await em.flush();
      group.traversalIds = [...(parent?.traversalIds ?? []), group.id];
      await storeAvatar(ctx, em, group, input);
      addGroupMember(em, group.id, { userId: user.id, accessLevel: AccessLevel.OWNER, expiresAt: null, now });
      await em.flush();
      await recordAudit(ctx, em, [{ ...groupAudit(group), action: { add: 'group' } }]);
      await emitSystemEvents(ctx, em, () => [
        groupEvent(group, 'create'),
        groupMemberAdded(group, user, AccessLevel.OWNER, now),
      ]);
    });
  await onUniqueViolation(write, (e) => new SaveFailedError('Failed to save group', { [takenField(e)!]: [MSG.taken] }));
  forgetAccess(ctx);
  return group;
}

/** Lowest visibility allowed by the group's children (projects and subgroups), for the visibility_level messages (docs/gitlab-compatibility.md, "Groups"). */
async function childVisibility(ctx: RequestCtx, group: Namespace): Promise<{ projects: number; subgroups: number }> {
  const [row] = await sqlRows<{ p: number | null; s: number | null }>(
    ctx.em,
    `select ${maxProjectVisibilityIn('?')} as p,
            ${maxSubgroupVisibility('?')} as s`,
    [group.id, group.id],
  );
  return { projects: row.p ?? -1, subgroups: row.s ?? -1 };
}

async function update(ctx: RequestCtx, idOrPath: string, input: UpdateGroupInput): Promise<Namespace> {
  const group = await findOwned(ctx, idOrPath);
  const parent = group.parentId ? await findNamespace(ctx.em, group.parentId) : null;
  const old = { fullPath: group.fullPath, fullName: group.fullName, visibilityLevel: group.visibilityLevel };
  const before = auditedGroupFields(group);
  patchEntity(group, input, UpdateGroupInput, STORED);
  const restricted =
    group.visibilityLevel === old.visibilityLevel ? undefined : await visibilityRestriction(ctx, group.visibilityLevel);
  if (restricted) throw new ValidationError({ visibility_level: [restricted] });
  group.updatedAt = ctx.clock.now();
  const bag = new FieldErrorBag();
  validate(group, parent, bag);
  checkAvatar(input, bag);
  if (input.visibility) {
    const children = await childVisibility(ctx, group);
    const v = levelName(group.visibilityLevel);
    if (children.projects > group.visibilityLevel)
      bag.add('visibility_level', `${v} is not allowed since this group contains projects with higher visibility.`);
    if (children.subgroups > group.visibilityLevel)
      bag.add('visibility_level', `${v} is not allowed since there are sub-groups with higher visibility.`);
  }
  if (!bag.empty) throw new ValidationError(bag.errors);
  const write = () =>
    ctx.em.transactional(async (em) => {
      // Paths re-read under the ancestry lock: a concurrent rename of an ancestor or subgroup create waits.
      const locked = await lockAncestry(em, group.id);
      const self = locked.get(group.id);
      const above = parent ? locked.get(parent.id) : undefined;
      if (!self) throw new NotFoundError('Group');
      old.fullPath = self.full_path;
      old.fullName = self.full_name;
      group.fullPath = above ? `${above.full_path}/${group.path}` : group.path;
      group.fullName = above ? `${above.full_name} / ${group.name}` : group.name;
      await em.flush();
      await storeAvatar(ctx, em, group, input);
      // Locking a group locks its whole subtree (GitLab's force_share_with_group_lock_on_descendants).
      if (group.shareWithGroupLock && !before.share_with_group_lock) {
        await lockShareWithGroupBelow(em, group.id);
      }
      if (group.fullPath !== old.fullPath || group.fullName !== old.fullName) {
        // Descendants keep their suffix under the new prefix: one statement for the whole subtree.
        await renameDescendants(
          em,
          group.id,
          { old: old.fullPath, now: group.fullPath },
          { old: old.fullName, now: group.fullName },
        );
      }
      const after = auditedGroupFields(group);
      await recordAudit(
        ctx,
        em,
        changes(
          groupAudit(group),
          Object.keys(after).map((k) => ({ name: k, from: before[k], to: after[k] })),
        ),
      );
      if (group.path !== before.path)
        await emitSystemEvents(ctx, em, () => [
          groupEvent(group, 'rename', { path: String(before.path), fullPath: old.fullPath }),
        ]);
    });
  await onUniqueViolation(write, (e) => new ValidationError({ [takenField(e)!]: [MSG.taken] }));
  return group;
}

/** Audit events of a group: the group is the entity (GitLab's group audit events) and the target. */
const groupAudit = (g: Namespace) => ({
  entityType: 'Group',
  entityId: g.id,
  entityPath: g.fullPath,
  targetType: 'Group',
  targetId: g.id,
  targetDetails: g.fullPath,
});
const auditedGroupFields = (g: Namespace): Record<string, unknown> => ({
  name: g.name,
  path: g.path,
  description: g.description,
  visibility_level: levelName(g.visibilityLevel),
  lfs_enabled: g.lfsEnabled,
  request_access_enabled: g.requestAccessEnabled,
  share_with_group_lock: g.shareWithGroupLock,
});

/** Deletes the group, its subgroups and all their projects in one statement (FK cascades). */
async function remove(ctx: RequestCtx, idOrPath: string): Promise<boolean> {
  const group = await findOwned(ctx, idOrPath);
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, groupClaim(group.id));
    // The subtree locked first (no project created in it from here), its forks off their sources' forks_count.
    await beforeNamespacesRemoved(em, [group.id]);
    // GitLab destroys the projects one by one, then the subgroups, then the group: one event each.
    await emitSystemEvents(ctx, em, async () => [
      ...(await projectEvents(em, await subtreeProjectIds(em, group.id), 'destroy')),
      ...(await subtreeGroupEvents(em, group.id)),
    ]);
    await deleteNamespace(em, group.id);
    // The level it had: groupChanged tells its deletion to whoever could see it (group-changes.ts).
    await recordAudit(ctx, em, [
      {
        ...groupAudit(group),
        action: { remove: 'group' },
        targetState: { visibility_level: group.visibilityLevel },
      },
    ]);
  });
  return true;
}

const TRANSFER = 'Failed to transfer project';
const TRANSFER_CLASH = 'Project with same name or path in target namespace already exists';

/** POST /groups/:id/projects/:project_id (admin only; docs/gitlab-compatibility.md, "Groups"). */
async function transferProject(ctx: RequestCtx, idOrPath: string, projectIdOrPath: string): Promise<Namespace> {
  const group = await findVisible(ctx, idOrPath);
  const project: Project = await projectService.findVisible(ctx, projectIdOrPath);
  if (project.namespaceId === group.id)
    throw new SaveFailedError(TRANSFER, { new_namespace: ['Transfer failed, please contact an admin.'] });
  if (await projectPathOrNameTakenIn(ctx.em, group.id, project.path, project.name))
    throw new SaveFailedError(TRANSFER, { new_namespace: [TRANSFER_CLASH] });
  const oldPath = `${(await ctx.loaders.namespace.load(project.namespaceId))?.fullPath ?? ''}/${project.path}`;
  project.namespaceId = group.id;
  // A project may not be more visible than its new group.
  project.visibilityLevel = Math.min(project.visibilityLevel, group.visibilityLevel);
  project.updatedAt = ctx.clock.now();
  // The target's ancestry stays locked until the move commits (no rename or delete in between).
  const move = () =>
    ctx.em.transactional(async (em) => {
      if (!(await lockAncestry(em, group.id)).has(group.id)) throw new NotFoundError('Group');
      await em.flush();
      await emitSystemEvents(ctx, em, () => projectEvents(em, [project.id], 'transfer', oldPath));
    });
  await onUniqueViolation(move, () => new SaveFailedError(TRANSFER, { new_namespace: [TRANSFER_CLASH] }));
  ctx.loaders.groupProjects.clearAll(); // every column variant of the group's list
  return group;
}

export const groupService = {
  findVisible,
  visibleByIds,
  findOwned,
  list,
  subgroups,
  descendantGroups,
  create,
  update,
  remove,
  transferProject,
};
