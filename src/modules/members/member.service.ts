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
  memberListRows,
  membershipClaim,
  membershipSourceColumn,
  newMembership,
} from '../access';
import { claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { likeEscape, pgArray, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import { pgTime } from '../../core/db/pg-time';
import type { Page } from '../../core/pagination/page';
import { groupService } from '../groups';
import {
  projectAncestryRows,
  projectAuditEntity,
  projectMatches,
  projectService,
  forgetAccess,
  groupVisibility,
  projectVisibility,
} from '../projects';
import { findUser, joinUser, userWebUrl } from '../users';
import { patchEntity } from '../../core/patch/patch-entity';
import {
  accessLevelOf,
  MemberInput,
  MemberRelation,
  UpdateMemberInput,
  type MemberListArgs,
  type MembersArgs,
  type MemberSourceType,
  type MemberType,
} from './member.type';
import { avatarUrl } from '../avatars';
import { projectPolicy } from '../projects';
import { groupAncestryRows, lockNamespace, namespaceFullPath, namespaceMatches, namespacePolicy } from '../namespaces';
import { memberEvent } from './member.events';

export type SourceKind = 'group' | 'project';

interface Source {
  kind: SourceKind;
  id: number;
  canAdmin: boolean;
  /** The caller's access level to the source (0 without any). */
  level: number;
  /** The source lets users request access (request_access_enabled). */
  requestAccessEnabled: boolean;
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
  };
}

type Row = Record<string, unknown> & {
  member_id: number;
  user_id: number;
  username: string;
  name: string;
  state: string;
  avatar: string | null;
  access_level: number;
  expires_at: string | null;
  created_at: string | Date;
  source_type: MemberSourceType;
  source_id: number;
};

/**
 * A membership row, the same in every list that shows it (whether it is inherited there is its source
 * compared with the listed one). `id` is the membership row's id: core makes it the global id (GroupMember or ProjectMember by
 * `sourceType`, the members module's `nodes`) and `databaseId`.
 */
function view(ctx: RequestCtx, r: Row): MemberType {
  const sourceId = Number(r.source_id);
  const level = Number(r.access_level);
  return {
    id: Number(r.member_id),
    userId: Number(r.user_id),
    username: r.username,
    name: r.name,
    state: r.state,
    avatarUrl: avatarUrl(ctx.externalUrl, 'user', Number(r.user_id), r.avatar),
    webUrl: userWebUrl(ctx.externalUrl, r.username),
    accessLevel: accessLevelOf(level),
    accessLevelValue: level,
    expiresAt: r.expires_at,
    createdAt: pgTime(r.created_at),
    sourceType: r.source_type,
    sourceId,
  };
}

/** Over `m` (a membership row with source_type and source_id) joined to `u` (users). */
const COLUMNS = `m.id as member_id, m.user_id, u.username, u.name, u.state, u.avatar, m.access_level,
  to_char(m.expires_at, 'YYYY-MM-DD') as expires_at, m.created_at, m.source_type, m.source_id`;

/** The member lists of `kind` with relations, joined to their users `u` (access's `memberListRows`). */
function relationsFrom(kind: SourceKind, relations: ReadonlySet<MemberRelation>): string {
  const sources = kind === 'group' ? groupAncestryRows('s') : projectAncestryRows('s');
  const which = { direct: relations.has(MemberRelation.DIRECT), inherited: relations.has(MemberRelation.INHERITED) };
  return `${memberListRows(kind, which, sources)} m ${joinUser('m.user_id')}`;
}

/** GitLab's default member list (GroupMembersFinder/MembersFinder DEFAULT_RELATIONS); also GitLab's `members/all`. */
const DEFAULT_RELATIONS: ReadonlySet<MemberRelation> = new Set([MemberRelation.DIRECT, MemberRelation.INHERITED]);
/** The REST member lists (GitLab 10.3's `GET …/members`): the source's own memberships. */
const DIRECT_ONLY: ReadonlySet<MemberRelation> = new Set([MemberRelation.DIRECT]);

/** The relations asked for: omitted, null and an empty list are GitLab's default, as the argument's default says. */
function relationSet(relations: readonly MemberRelation[] | null | undefined): ReadonlySet<MemberRelation> {
  return relations?.length ? new Set(relations) : DEFAULT_RELATIONS;
}

/**
 * A member list: DIRECT alone reads the membership table as before (the REST lists); other relations
 * the per-user union above, ordered by membership id then user id (ids of two tables may meet).
 */
function memberListQuery(
  ctx: RequestCtx,
  kind: SourceKind,
  relations: ReadonlySet<MemberRelation>,
  search: string | null | undefined,
): ListQuery<MemberType> & { key: string } {
  const directOnly = relations.size === 1 && relations.has(MemberRelation.DIRECT);
  const where: string[] = [];
  const params: unknown[] = [];
  if (search) {
    where.push('(u.username ilike ? or u.name ilike ?)');
    const term = `%${likeEscape(search)}%`;
    params.push(term, term);
  }
  const map = (r: Record<string, unknown>) => view(ctx, r as Row);
  if (directOnly) {
    return {
      select: COLUMNS,
      from: `${directMemberships(kind)} m ${joinUser('m.user_id')}`,
      where,
      params,
      orderBy: 'm.id',
      dir: 'asc',
      id: 'm.id',
      map,
      key: `m.${membershipSourceColumn(kind)}`,
    };
  }
  return {
    select: COLUMNS,
    from: relationsFrom(kind, relations),
    where,
    params,
    orderBy: 'm.id',
    dir: 'asc',
    id: 'm.user_id',
    map,
    key: 'm.list_key',
  };
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
  const q = memberListQuery(ctx, kind, DIRECT_ONLY, args.query);
  return offsetPage(ctx.em, { ...q, where: [`${q.key} = ?`, ...q.where], params: [src.id, ...q.params] }, args);
}

/**
 * `Group.groupMembers(…)` / `Project.projectMembers(…)` of many groups or projects with one argument set:
 * one bounded count and one page query (offsetPagesByKey), whatever the number of parents. The member
 * loaders (member.loaders.ts) call it once per kind and distinct argument set.
 */
export async function memberPagesFor(
  ctx: RequestCtx,
  kind: SourceKind,
  args: MemberListArgs,
  sourceIds: readonly number[],
): Promise<Map<number, Page<MemberType>>> {
  // list_key (inherited lists) or the membership's source column (direct lists) tells whose row it is.
  const q = memberListQuery(ctx, kind, relationSet(args.relations), args.search);
  const select = q.key === 'm.list_key' ? `${q.select}, m.list_key` : q.select;
  return offsetPagesByKey(ctx.em, { ...q, select }, q.key, sourceIds, args);
}

/** The field's arguments in one form (relations deduplicated and sorted, the default spelled out), so that equal lists share a batch. */
export const normalizedMemberListArgs = (a: MemberListArgs): MemberListArgs => ({
  ...a,
  relations: [...relationSet(a.relations)].sort(),
});

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

async function remove(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<boolean> {
  const src = await manageable(ctx, kind, idOrPath, undefined);
  const row = await findRow(ctx, src, userId);
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
  const q = memberListQuery(ctx, kind, DEFAULT_RELATIONS, args.query);
  return offsetPage(ctx.em, { ...q, where: [`${q.key} = ?`, ...q.where], params: [src.id, ...q.params] }, args);
}

/** GET …/members/all/:user_id: the user's entry in that list, `404 Member Not Found` without one. */
async function getAll(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<MemberType> {
  const src = await source(ctx, kind, idOrPath);
  const q = memberListQuery(ctx, kind, DEFAULT_RELATIONS, null);
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
