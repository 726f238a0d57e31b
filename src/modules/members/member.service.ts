import { assertOptionalDate } from '../../core/params/coerce';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { memberEvent } from '../access/system-event-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { likeEscape, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { AccessLevel, GROUP_MEMBER_ACCESS_LEVELS, PROJECT_MEMBER_ACCESS_LEVELS } from '../access/access-level';
import { policy } from '../access/policy';
import { forgetAccess } from '../access/visibility';
import { activeMembership } from '../access/visibility-sql';
import { groupService } from '../groups/group.service';
import { projectService } from '../projects/project.service';
import { User } from '../users/user.entity';
import { userWebUrl } from '../users/user-web-url';
import { GroupMember, ProjectMember } from '../access/member.entity';
import { patchEntity } from '../../core/patch/patch-entity';
import { MemberInput, UpdateMemberInput, type MembersArgs, type MemberType } from './member.type';
import { avatarUrl } from '../avatars';

export type SourceKind = 'group' | 'project';

interface Source {
  kind: SourceKind;
  id: number;
  table: 'group_members' | 'project_members';
  fk: 'group_id' | 'project_id';
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
    return { kind, id: group.id, table: 'group_members', fk: 'group_id', canAdmin: policy.canAdminGroup(ctx.user, level), level, requestAccessEnabled: group.requestAccessEnabled };
  }
  const project = await projectService.findVisible(ctx, idOrPath);
  const level = await projectService.accessLevel(ctx, project);
  return { kind, id: project.id, table: 'project_members', fk: 'project_id', canAdmin: policy.canAdminProject(ctx.user, level), level, requestAccessEnabled: project.requestAccessEnabled };
}

type Row = Record<string, unknown> & { id: number; username: string; name: string; state: string; avatar: string | null; access_level: number; expires_at: string | null };

function view(ctx: RequestCtx, r: Row): MemberType {
  return {
    id: r.id, username: r.username, name: r.name, state: r.state, avatarUrl: avatarUrl(ctx.externalUrl, 'user', r.id, r.avatar), webUrl: userWebUrl(ctx.externalUrl, r.username),
    accessLevel: r.access_level, expiresAt: r.expires_at,
  };
}

const COLUMNS = `u.id, u.username, u.name, u.state, u.avatar, m.access_level, to_char(m.expires_at, 'YYYY-MM-DD') as expires_at`;
const SELECT = `select ${COLUMNS}`;

async function list(ctx: RequestCtx, kind: SourceKind, args: MembersArgs): Promise<Page<MemberType>> {
  const src = await source(ctx, kind, args.sourceId);
  const params: unknown[] = [src.id];
  const where = [`m.${src.fk} = ?`];
  if (args.query) {
    where.push('(u.username ilike ? or u.name ilike ?)');
    const term = `%${likeEscape(args.query)}%`;
    params.push(term, term);
  }
  const from = `${src.table} m join users u on u.id = m.user_id`;
  return offsetPage(ctx.em, { select: COLUMNS, from, where, params, orderBy: 'm.id', dir: 'asc', id: 'm.id', map: (r) => view(ctx, r as Row) }, args);
}

async function findRow(ctx: RequestCtx, src: Source, userId: number): Promise<MemberType> {
  const rows = await sqlRows<Row>(ctx.em, `${SELECT} from ${src.table} m join users u on u.id = m.user_id where m.${src.fk} = ? and m.user_id = ?`, [src.id, userId]);
  if (!rows[0]) throw new NotFoundError('Member');
  return view(ctx, rows[0]);
}

async function get(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<MemberType> {
  return findRow(ctx, await source(ctx, kind, idOrPath), userId);
}

async function manageable(ctx: RequestCtx, kind: SourceKind, idOrPath: string, accessLevel: number | undefined, expiresAt?: string | null): Promise<Source> {
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
  const user = await ctx.em.findOne(User, { id: input.userId });
  if (!user) throw new NotFoundError('User');
  const now = ctx.clock.now();
  const member = kind === 'group' ? Object.assign(new GroupMember(), { groupId: src.id }) : Object.assign(new ProjectMember(), { projectId: src.id });
  patchEntity(Object.assign(member, { createdAt: now, updatedAt: now }), input, MemberInput);
  const entity = await auditEntity(ctx, src);
  await onUniqueViolation(() => ctx.em.transactional(async (em) => {
    em.persist(member);
    await em.flush();
    await recordAudit(ctx, em, [{ ...entity, targetType: 'User', targetId: user.id, targetDetails: user.username, action: { add: 'user_access', as: roleName(member.accessLevel) } }]);
    await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, user.id, 'create'));
  }), () => new ConflictError('Member already exists'));
  forgetAccess(ctx);
  return findRow(ctx, src, user.id);
}

async function update(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number, input: UpdateMemberInput): Promise<MemberType> {
  const src = await manageable(ctx, kind, idOrPath, input.accessLevel, input.expiresAt);
  const row = await findRow(ctx, src, userId);
  const entity = await auditEntity(ctx, src);
  await ctx.em.transactional(async (em) => {
    if (kind === 'group' && input.accessLevel < AccessLevel.OWNER) await ensureAnotherOwner(em, src, userId);
    const member = kind === 'group'
      ? await em.findOneOrFail(GroupMember, { groupId: src.id, userId })
      : await em.findOneOrFail(ProjectMember, { projectId: src.id, userId });
    const before = { access_level: roleName(member.accessLevel), expires_at: member.expiresAt };
    patchEntity(member, input, UpdateMemberInput);
    member.updatedAt = ctx.clock.now();
    await em.flush();
    const after = { access_level: roleName(member.accessLevel), expires_at: member.expiresAt };
    await recordAudit(ctx, em, changes({ ...entity, targetType: 'User', targetId: userId, targetDetails: row.username },
      (['access_level', 'expires_at'] as const).map((k) => ({ name: k, from: before[k], to: after[k] }))));
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
  await sqlRows(em, 'select id from namespaces where id = ? for update', [src.id]);
  const rows = await sqlRows<{ others: string; is_owner: boolean }>(
    em,
    `select count(*) filter (where gm.user_id <> ? and gm.access_level = ${AccessLevel.OWNER} and ${activeMembership('gm')}) as others,
            bool_or(gm.user_id = ? and gm.access_level = ${AccessLevel.OWNER}) as is_owner
       from group_members gm where gm.group_id = ?`,
    [userId, userId, src.id],
  );
  if (rows[0]?.is_owner && Number(rows[0].others) === 0) throw new ForbiddenError();
}

async function remove(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<boolean> {
  const src = await manageable(ctx, kind, idOrPath, undefined);
  const row = await findRow(ctx, src, userId);
  const entity = await auditEntity(ctx, src);
  await ctx.em.transactional(async (em) => {
    if (kind === 'group') await ensureAnotherOwner(em, src, userId);
    await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, userId, 'destroy'));
    await sqlRows(em, `delete from ${src.table} where ${src.fk} = ? and user_id = ?`, [src.id, userId]);
    await recordAudit(ctx, em, [{ ...entity, targetType: 'User', targetId: userId, targetDetails: row.username, action: { remove: 'user_access' } }]);
  });
  forgetAccess(ctx);
  return true;
}

/** GitLab's role names, as its member audit events show them. */
const ROLES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Master', 50: 'Owner' };
const roleName = (level: number) => ROLES[level] ?? String(level);

/** The audit entity of a membership change: the group or project, with its full path. */
async function auditEntity(ctx: RequestCtx, src: Source): Promise<{ entityType: string; entityId: number; entityPath: string }> {
  const [row] = await sqlRows<{ path: string }>(ctx.em, src.kind === 'group'
    ? 'select full_path as path from namespaces where id = ?'
    : `select n.full_path || '/' || p.path as path from projects p join namespaces n on n.id = p.namespace_id where p.id = ?`, [src.id]);
  return { entityType: src.kind === 'group' ? 'Group' : 'Project', entityId: src.id, entityPath: row?.path ?? '' };
}

export const memberService = { list, get, add, update, remove };

/** For the access requests of the same sources (access-request.service.ts). */
export const memberInternals = { source, auditEntity, roleName, findRow };
