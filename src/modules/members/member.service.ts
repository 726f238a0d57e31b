import { assertOptionalDate } from '../../core/params/coerce';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import {
  AccessLevel,
  GROUP_MEMBER_ACCESS_LEVELS,
  PROJECT_MEMBER_ACCESS_LEVELS,
  deleteMembership,
  directMemberships,
  getMembership,
  groupOwners,
  membershipClaim,
  membershipSourceColumn,
  newMembership,
} from '../access';
import { claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { pgArray, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { groupService } from '../groups';
import {
  projectAuditEntity,
  projectMatches,
  projectService,
  forgetAccess,
  groupVisibility,
  projectVisibility,
} from '../projects';
import { findUser, joinUser } from '../users';
import { patchEntity } from '../../core/patch/patch-entity';
import { MemberInput, UpdateMemberInput, type MembersArgs, type MemberType } from './member.type';
import { projectPolicy } from '../projects';
import { lockNamespace, namespaceFullPath, namespaceMatches, namespacePolicy } from '../namespaces';
import { memberEvent } from './member.events';
import {
  COLUMNS,
  DEFAULT_RELATIONS,
  DIRECT_ONLY,
  memberListQuery,
  view,
  type Row,
  type SourceKind,
} from './member-list.query';

export type { SourceKind } from './member-list.query';

interface Source {
  kind: SourceKind;
  id: number;
  canAdmin: boolean;
  /** The caller's access level to the source (0 without any). */
  level: number;
  /** The source lets users request access (request_access_enabled). */
  requestAccessEnabled: boolean;
  /** A project's namespace (its owner's membership is kept: `keepPersonalOwner`). */
  namespaceId?: number;
}

/** Resolves the group/project (404 when invisible) and whether the caller may manage its members. */
async function source(ctx: RequestCtx, kind: SourceKind, idOrPath: string): Promise<Source> {
  if (kind === 'group') {
    const group = await groupService.findVisible(ctx, idOrPath);
    const level = ctx.user ? await ctx.loaders.groupLevel.load(group.id) : 0;
    return {
      kind,
      id: group.id,
      canAdmin: namespacePolicy.canAdminGroup(ctx.user, level),
      level,
      requestAccessEnabled: group.requestAccessEnabled,
    };
  }
  const project = await projectService.findVisible(ctx, idOrPath);
  const level = await projectService.accessLevel(ctx, project);
  return {
    kind,
    id: project.id,
    canAdmin: projectPolicy.canAdminProject(ctx.user, level),
    level,
    requestAccessEnabled: project.requestAccessEnabled,
    namespaceId: project.namespaceId,
  };
}

/**
 * GitLab's ProjectMemberPolicy `target_is_owner` (prevent_all): nobody, administrators included, changes
 * or removes the membership of a personal project's owner (403), so the owner stays a direct member, as
 * project creation and transfer make them.
 */
async function keepPersonalOwner(ctx: RequestCtx, src: Source, userId: number): Promise<void> {
  if (src.namespaceId === undefined) return;
  const ns = await ctx.loaders.namespace.load(src.namespaceId);
  if (ns?.kind === 'user' && ns.ownerId === userId) throw new ForbiddenError();
}

/**
 * node(id)/nodes(ids) of memberships: the `kind` memberships among these row ids whose group or project
 * the caller may see, the visibility of that source's member list (`source` above: a visible source
 * lists its members to anyone). One statement.
 */
async function visibleByIds(
  ctx: RequestCtx,
  kind: SourceKind,
  ids: readonly (number | string)[],
): Promise<MemberType[]> {
  const visible =
    kind === 'group'
      ? namespaceMatches('m.source_id', 's', `s.kind = 'group' and ${await groupVisibility(ctx, 's')}`)
      : projectMatches('m.source_id', 's', await projectVisibility(ctx, 's'));
  const rows = await sqlRows<Row>(
    ctx.em,
    `select ${COLUMNS} from ${directMemberships(kind)} m ${joinUser('m.user_id')}
    where m.id = any(?::int[]) and ${visible}`,
    [pgArray(ids.map(Number))],
  );
  return rows.map((r) => view(ctx, r));
}

async function list(ctx: RequestCtx, kind: SourceKind, args: MembersArgs): Promise<Page<MemberType>> {
  const src = await source(ctx, kind, args.sourceId);
  const q = await memberListQuery(ctx, kind, DIRECT_ONLY, args.query);
  return offsetPage(ctx.em, { ...q, where: [`${q.key} = ?`, ...q.where], params: [src.id, ...q.params] }, args);
}

async function findRow(ctx: RequestCtx, src: Source, userId: number): Promise<MemberType> {
  const rows = await sqlRows<Row>(
    ctx.em,
    `select ${COLUMNS} from ${directMemberships(src.kind)} m ${joinUser('m.user_id')} where m.${membershipSourceColumn(src.kind)} = ? and m.user_id = ?`,
    [src.id, userId],
  );
  if (!rows[0]) throw new NotFoundError('Member');
  return view(ctx, rows[0]);
}

async function get(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<MemberType> {
  return findRow(ctx, await source(ctx, kind, idOrPath), userId);
}

async function manageable(
  ctx: RequestCtx,
  kind: SourceKind,
  idOrPath: string,
  accessLevel: number | undefined,
  expiresAt?: string | null,
): Promise<Source> {
  requireUser(ctx);
  const src = await source(ctx, kind, idOrPath);
  if (!src.canAdmin) throw new ForbiddenError();
  assertOptionalDate('expires_at', expiresAt);
  const allowed: readonly number[] = kind === 'group' ? GROUP_MEMBER_ACCESS_LEVELS : PROJECT_MEMBER_ACCESS_LEVELS;
  if (accessLevel !== undefined && !allowed.includes(accessLevel)) throw ParamError.notInSet('access_level');
  return src;
}

async function add(ctx: RequestCtx, kind: SourceKind, idOrPath: string, input: MemberInput): Promise<MemberType> {
  const src = await manageable(ctx, kind, idOrPath, input.accessLevel, input.expiresAt);
  const user = await findUser(ctx.em, input.userId);
  if (!user) throw new NotFoundError('User');
  const now = ctx.clock.now();
  const member = newMembership(kind, src.id);
  patchEntity(Object.assign(member, { createdAt: now, updatedAt: now }), input, MemberInput);
  const entity = await auditEntity(ctx, src);
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        em.persist(member);
        await em.flush();
        await recordAudit(ctx, em, [
          {
            ...entity,
            targetType: 'User',
            targetId: user.id,
            targetDetails: user.username,
            action: { add: 'user_access', as: roleName(member.accessLevel) },
          },
        ]);
        await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, user.id, 'create'));
      }),
    () => new ConflictError('Member already exists'),
  );
  forgetAccess(ctx);
  return findRow(ctx, src, user.id);
}

async function update(
  ctx: RequestCtx,
  kind: SourceKind,
  idOrPath: string,
  userId: number,
  input: UpdateMemberInput,
): Promise<MemberType> {
  const src = await manageable(ctx, kind, idOrPath, input.accessLevel, input.expiresAt);
  const row = await findRow(ctx, src, userId);
  await keepPersonalOwner(ctx, src, userId);
  const entity = await auditEntity(ctx, src);
  await ctx.em.transactional(async (em) => {
    if (kind === 'group' && input.accessLevel < AccessLevel.OWNER) await ensureAnotherOwner(em, src, userId);
    const member = await getMembership(em, kind, src.id, userId);
    const before = { access_level: roleName(member.accessLevel), expires_at: member.expiresAt };
    patchEntity(member, input, UpdateMemberInput);
    member.updatedAt = ctx.clock.now();
    await em.flush();
    const after = { access_level: roleName(member.accessLevel), expires_at: member.expiresAt };
    await recordAudit(
      ctx,
      em,
      changes(
        { ...entity, targetType: 'User', targetId: userId, targetDetails: row.username },
        (['access_level', 'expires_at'] as const).map((k) => ({ name: k, from: before[k], to: after[k] })),
      ),
    );
  });
  forgetAccess(ctx);
  return findRow(ctx, src, userId);
}

/**
 * A group keeps at least one direct, unexpired Owner (GitLab refuses to remove or demote the last one).
 * Runs inside the write's transaction after locking the group row, so two owners demoting or removing
 * each other concurrently are serialized: the second one sees the first one's change and is refused.
 */
async function ensureAnotherOwner(em: RequestCtx['em'], src: Source, userId: number): Promise<void> {
  await lockNamespace(em, src.id);
  const owners = await groupOwners(em, src.id, userId);
  if (owners.isOwner && owners.others === 0) throw new ForbiddenError();
}

/**
 * Removes a membership: a maintainer of the source (an owner of a group) removes anyone, and a member
 * removes their own membership, i.e. leaves (GitLab's GroupMemberPolicy and ProjectMemberPolicy:
 * `destroy_*_member` for the target user themselves); a group's last owner and a personal project's
 * owner stay either way.
 */
async function remove(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<boolean> {
  const self = requireUser(ctx).id === userId;
  const src = self ? await source(ctx, kind, idOrPath) : await manageable(ctx, kind, idOrPath, undefined);
  const row = await findRow(ctx, src, userId);
  await keepPersonalOwner(ctx, src, userId);
  const entity = await auditEntity(ctx, src);
  await ctx.em.transactional(async (em) => {
    // The group's row before the member's, as group delete, user delete and member updates take them.
    if (kind === 'group') await lockNamespace(em, src.id);
    await claimForDelete(ctx, em, membershipClaim(kind, src.id, userId));
    if (kind === 'group') await ensureAnotherOwner(em, src, userId);
    await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, userId, 'destroy'));
    await deleteMembership(em, kind, src.id, userId);
    await recordAudit(ctx, em, [
      {
        ...entity,
        targetType: 'User',
        targetId: userId,
        targetDetails: row.username,
        action: { remove: 'user_access' },
      },
    ]);
  });
  forgetAccess(ctx);
  return true;
}

/** GitLab's role names, as its member audit events show them. */
const ROLES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Master', 50: 'Owner' };
const roleName = (level: number) => ROLES[level] ?? String(level);

/** The audit entity of a membership change: the group or project, with its full path. */
async function auditEntity(
  ctx: RequestCtx,
  src: Source,
): Promise<{ entityType: string; entityId: number; entityPath: string }> {
  if (src.kind === 'project') return projectAuditEntity(ctx, src.id);
  return { entityType: 'Group', entityId: src.id, entityPath: await namespaceFullPath(ctx.em, src.id) };
}

/**
 * GET /groups/:id/members/all and /projects/:id/members/all (GitLab's `find_all_members_for_*`):
 * direct and inherited members, one entry per user with the highest access level (relationsFrom).
 */
async function listAll(ctx: RequestCtx, kind: SourceKind, args: MembersArgs): Promise<Page<MemberType>> {
  const src = await source(ctx, kind, args.sourceId);
  const q = await memberListQuery(ctx, kind, DEFAULT_RELATIONS, args.query);
  return offsetPage(ctx.em, { ...q, where: [`${q.key} = ?`, ...q.where], params: [src.id, ...q.params] }, args);
}

/** GET …/members/all/:user_id: the user's entry in that list, `404 Member Not Found` without one. */
async function getAll(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<MemberType> {
  const src = await source(ctx, kind, idOrPath);
  const q = await memberListQuery(ctx, kind, DEFAULT_RELATIONS, null);
  const rows = await sqlRows<Row>(ctx.em, `select ${q.select} from ${q.from} where ${q.key} = ? and m.user_id = ?`, [
    src.id,
    userId,
  ]);
  if (!rows[0]) throw new NotFoundError('Member');
  return q.map(rows[0]);
}

export const memberService = { list, listAll, get, getAll, add, update, remove, visibleByIds };

/** For the access requests of the same sources (access-request.service.ts). */
export const memberInternals = { source, auditEntity, roleName, findRow };
