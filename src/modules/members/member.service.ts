import { assertOptionalDate } from '../../core/params/coerce';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import {
  AccessLevel,
  GROUP_MEMBER_ACCESS_LEVELS,
  PROJECT_MEMBER_ACCESS_LEVELS,
  forgetAccess,
  groupVisibility,
  projectVisibility,
  activeMembership,
  GroupMember,
  ProjectMember,
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
import { projectService } from '../projects';
import { User } from '../users';
import { userWebUrl } from '../users';
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
import { namespacePolicy } from '../namespaces';
import { memberEvent } from './member.events';

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
    return {
      kind,
      id: group.id,
      table: 'group_members',
      fk: 'group_id',
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
    table: 'project_members',
    fk: 'project_id',
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
 * A membership row as the list of `kind` `listId` shows it (DIRECT when the row is of that source).
 * `id` is the membership row's id: core makes it the global id (GroupMember or ProjectMember by
 * `sourceType`, the members module's `nodes`) and `databaseId`.
 */
function view(ctx: RequestCtx, r: Row, kind: SourceKind, listId: number): MemberType {
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
    relation: r.source_type === kind && sourceId === listId ? MemberRelation.DIRECT : MemberRelation.INHERITED,
    sourceType: r.source_type,
    sourceId,
  };
}

/** Over `m` (a membership row with source_type and source_id) joined to `u` (users). */
const COLUMNS = `m.id as member_id, m.user_id, u.username, u.name, u.state, u.avatar, m.access_level,
  to_char(m.expires_at, 'YYYY-MM-DD') as expires_at, m.created_at, m.source_type, m.source_id`;

/** A direct membership table as rows with their source (`m.source_type`, `m.source_id`). */
const directRows = (src: Pick<Source, 'kind' | 'table' | 'fk'>) =>
  `(select x.*, '${src.kind}'::text as source_type, x.${src.fk} as source_id from ${src.table} x)`;

/** The membership table of `kind`. */
const membershipTable = (kind: SourceKind): Pick<Source, 'kind' | 'table' | 'fk'> =>
  kind === 'group'
    ? { kind, table: 'group_members', fk: 'group_id' }
    : { kind, table: 'project_members', fk: 'project_id' };

/** Membership columns of a union branch. */
const MEMBER_COLS = (a: string) => `${a}.id, ${a}.user_id, ${a}.access_level, ${a}.expires_at, ${a}.created_at`;

/**
 * FROM of a member list per list key (`m.list_key`: the group or project id) with relations: the
 * direct memberships and/or those of the groups above (a group's ancestors; a project's group and its
 * ancestors), active ones only for inherited rows (an expired one grants nothing), one row per user:
 * the highest access level, then the later expiry (none first), then the older membership, as GitLab's
 * MembersFinder (`DISTINCT ON (user_id) … ORDER BY access_level DESC, expires_at DESC, created_at`).
 * Filtering on `m.list_key` is pushed into the DISTINCT ON subquery (a DISTINCT ON column), so one
 * list reads only its own ancestors' rows.
 */
function relationsFrom(kind: SourceKind, relations: ReadonlySet<MemberRelation>): string {
  const direct = relations.has(MemberRelation.DIRECT);
  const inherited = relations.has(MemberRelation.INHERITED);
  const branches: string[] = [];
  if (kind === 'group') {
    const which = direct && inherited ? '' : direct ? ' and gm.group_id = s.id' : ' and gm.group_id <> s.id';
    branches.push(`select ${MEMBER_COLS('gm')}, 'group'::text as source_type, gm.group_id as source_id from group_members gm
      where gm.group_id = any(s.traversal_ids)${which} and (gm.group_id = s.id or ${activeMembership('gm')})`);
  } else {
    if (direct)
      branches.push(
        `select ${MEMBER_COLS('pm')}, 'project'::text as source_type, pm.project_id as source_id from project_members pm where pm.project_id = s.id`,
      );
    if (inherited)
      branches.push(`select ${MEMBER_COLS('gm')}, 'group'::text as source_type, gm.group_id as source_id from group_members gm
      where sn.kind = 'group' and gm.group_id = any(sn.traversal_ids) and ${activeMembership('gm')}`);
  }
  const sources = kind === 'group' ? `namespaces s` : `projects s join namespaces sn on sn.id = s.namespace_id`;
  return `(select distinct on (s.id, x.user_id) s.id as list_key, x.* from ${sources} cross join lateral (${branches.join(' union all ')}) x
     order by s.id, x.user_id, x.access_level desc, x.expires_at desc, x.created_at, x.id) m join users u on u.id = m.user_id`;
}

/** The relations asked for (default and empty list: DIRECT). */
function relationSet(relations: readonly MemberRelation[] | null | undefined): Set<MemberRelation> {
  return new Set(relations?.length ? relations : [MemberRelation.DIRECT]);
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
  listId: (r: Row) => number,
): ListQuery<MemberType> & { key: string } {
  const table = membershipTable(kind);
  const directOnly = relations.size === 1 && relations.has(MemberRelation.DIRECT);
  const where: string[] = [];
  const params: unknown[] = [];
  if (search) {
    where.push('(u.username ilike ? or u.name ilike ?)');
    const term = `%${likeEscape(search)}%`;
    params.push(term, term);
  }
  const map = (r: Record<string, unknown>) => view(ctx, r as Row, kind, listId(r as Row));
  if (directOnly) {
    return {
      select: COLUMNS,
      from: `${directRows(table)} m join users u on u.id = m.user_id`,
      where,
      params,
      orderBy: 'm.id',
      dir: 'asc',
      id: 'm.id',
      map,
      key: `m.${table.fk}`,
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
 * lists its members to anyone). One statement; each shown as of its own source (relation DIRECT).
 */
async function visibleByIds(
  ctx: RequestCtx,
  kind: SourceKind,
  ids: readonly (number | string)[],
): Promise<MemberType[]> {
  const src = membershipTable(kind);
  const visible =
    kind === 'group'
      ? `exists (select 1 from namespaces s where s.id = m.source_id and s.kind = 'group' and ${await groupVisibility(ctx, 's')})`
      : `exists (select 1 from projects s where s.id = m.source_id and ${await projectVisibility(ctx, 's')})`;
  const rows = await sqlRows<Row>(
    ctx.em,
    `select ${COLUMNS} from ${directRows(src)} m join users u on u.id = m.user_id
    where m.id = any(?::int[]) and ${visible}`,
    [pgArray(ids.map(Number))],
  );
  return rows.map((r) => view(ctx, r, kind, Number(r.source_id)));
}

async function list(ctx: RequestCtx, kind: SourceKind, args: MembersArgs): Promise<Page<MemberType>> {
  const src = await source(ctx, kind, args.sourceId);
  const q = memberListQuery(ctx, kind, relationSet(null), args.query, () => src.id);
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
  const q = memberListQuery(ctx, kind, relationSet(args.relations), args.search, (r) =>
    Number(r.list_key ?? r.source_id),
  );
  const select = q.key === 'm.list_key' ? `${q.select}, m.list_key` : q.select;
  return offsetPagesByKey(ctx.em, { ...q, select }, q.key, sourceIds, args);
}

/** The field's arguments in one form (relations deduplicated and sorted, DIRECT by default), so that equal lists share a batch. */
export const normalizedMemberListArgs = (a: MemberListArgs): MemberListArgs => ({
  ...a,
  relations: [...relationSet(a.relations)].sort(),
});

async function findRow(ctx: RequestCtx, src: Source, userId: number): Promise<MemberType> {
  const rows = await sqlRows<Row>(
    ctx.em,
    `select ${COLUMNS} from ${directRows(src)} m join users u on u.id = m.user_id where m.${src.fk} = ? and m.user_id = ?`,
    [src.id, userId],
  );
  if (!rows[0]) throw new NotFoundError('Member');
  return view(ctx, rows[0], src.kind, src.id);
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
  const user = await ctx.em.findOne(User, { id: input.userId });
  if (!user) throw new NotFoundError('User');
  const now = ctx.clock.now();
  const member =
    kind === 'group'
      ? Object.assign(new GroupMember(), { groupId: src.id })
      : Object.assign(new ProjectMember(), { projectId: src.id });
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
    const member =
      kind === 'group'
        ? await em.findOneOrFail(GroupMember, { groupId: src.id, userId })
        : await em.findOneOrFail(ProjectMember, { projectId: src.id, userId });
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
    // The group's row before the member's, as group delete, user delete and member updates take them.
    if (kind === 'group') await sqlRows(em, 'select 1 from namespaces where id = ? for update', [src.id]);
    await claimForDelete(ctx, em, {
      table: src.table,
      where: `${src.fk} = ? and user_id = ?`,
      params: [src.id, userId],
      missing: () => new NotFoundError('Member'),
    });
    if (kind === 'group') await ensureAnotherOwner(em, src, userId);
    await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, userId, 'destroy'));
    await sqlRows(em, `delete from ${src.table} where ${src.fk} = ? and user_id = ?`, [src.id, userId]);
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
  const [row] = await sqlRows<{ path: string }>(
    ctx.em,
    src.kind === 'group'
      ? 'select full_path as path from namespaces where id = ?'
      : `select n.full_path || '/' || p.path as path from projects p join namespaces n on n.id = p.namespace_id where p.id = ?`,
    [src.id],
  );
  return { entityType: src.kind === 'group' ? 'Group' : 'Project', entityId: src.id, entityPath: row?.path ?? '' };
}

/** GitLab's `members/all` relations: the source's own members and those of the groups above it. */
const ALL = new Set([MemberRelation.DIRECT, MemberRelation.INHERITED]);

/**
 * GET /groups/:id/members/all and /projects/:id/members/all (GitLab's `find_all_members_for_*`):
 * direct and inherited members, one entry per user with the highest access level (relationsFrom).
 */
async function listAll(ctx: RequestCtx, kind: SourceKind, args: MembersArgs): Promise<Page<MemberType>> {
  const src = await source(ctx, kind, args.sourceId);
  const q = memberListQuery(ctx, kind, ALL, args.query, () => src.id);
  return offsetPage(ctx.em, { ...q, where: [`${q.key} = ?`, ...q.where], params: [src.id, ...q.params] }, args);
}

/** GET …/members/all/:user_id: the user's entry in that list, `404 Member Not Found` without one. */
async function getAll(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<MemberType> {
  const src = await source(ctx, kind, idOrPath);
  const q = memberListQuery(ctx, kind, ALL, null, () => src.id);
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
