import { requireUser } from '../../core/auth/guards';
import { claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { pgTime } from '../../core/db/pg-time';
import { pgArray, sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import { recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import { AccessLevel, GROUP_MEMBER_ACCESS_LEVELS, PROJECT_MEMBER_ACCESS_LEVELS, insertMembership } from '../access';
import { avatarUrl } from '../avatars';
import { joinUser, usernameOf, userWebUrl } from '../users';
import type { AccessRequesterType } from './access-request.type';
import { memberInternals, type SourceKind } from './member.service';
import type { MemberType } from './member.type';
import { projectPolicy, forgetAccess } from '../projects';
import { namespacePolicy } from '../namespaces';
import { memberEvent } from './member.events';

/**
 * Access requests of groups and projects (GitLab 10.3's lib/api/access_requests.rb): a signed-in user
 * without access asks to join a source that has request_access_enabled; its Owners (Masters of a
 * project) list, approve (the request becomes a membership, Developer unless another level is given)
 * or deny them; the requester may withdraw. Stored in `access_requests`, apart from memberships.
 */
const { source, auditEntity, roleName, findRow } = memberInternals;

type Row = {
  id: number;
  user_id: number;
  username: string;
  name: string;
  state: string;
  avatar: string | null;
  requested_at: Date | string;
};

function view(ctx: RequestCtx, r: Row): AccessRequesterType {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    username: r.username,
    name: r.name,
    state: r.state,
    avatarUrl: avatarUrl(ctx.externalUrl, 'user', Number(r.user_id), r.avatar),
    webUrl: userWebUrl(ctx.externalUrl, r.username),
    requestedAt: pgTime(r.requested_at),
  };
}

const COLUMNS = 'r.id, r.user_id, u.username, u.name, u.state, u.avatar, r.requested_at';

/** A source kind's access requests in request order (index access_requests_source_user); the caller adds which sources. */
function requestQuery(ctx: RequestCtx, kind: SourceKind): ListQuery<AccessRequesterType> {
  return {
    select: COLUMNS,
    from: `access_requests r ${joinUser('r.user_id')}`,
    where: ['r.source_type = ?'],
    params: [kind],
    orderBy: 'r.id',
    dir: 'asc',
    id: 'r.id',
    map: (r) => view(ctx, r as Row),
  };
}

/** GET /:sources/:id/access_requests: for those who manage the members (403 otherwise), in request order. */
async function list(
  ctx: RequestCtx,
  kind: SourceKind,
  idOrPath: string,
  args: PageArgs,
): Promise<Page<AccessRequesterType>> {
  requireUser(ctx);
  const src = await source(ctx, kind, idOrPath);
  if (!src.canAdmin) throw new ForbiddenError();
  const q = requestQuery(ctx, kind);
  return offsetPage(ctx.em, { ...q, where: [...q.where, 'r.source_id = ?'], params: [...q.params, src.id] }, args);
}

/**
 * `Group.accessRequests` / `Project.accessRequests` of many sources the caller manages (the resolver
 * checked): one bounded count and one page statement per argument set.
 */
function listForSources(
  ctx: RequestCtx,
  kind: SourceKind,
  ids: number[],
  args: PageArgs,
): Promise<Map<number, Page<AccessRequesterType>>> {
  return offsetPagesByKey(ctx.em, requestQuery(ctx, kind), 'r.source_id', ids, args);
}

async function requestRow(
  ctx: RequestCtx,
  kind: SourceKind,
  sourceId: number,
  userId: number,
): Promise<Row | undefined> {
  const [row] = await sqlRows<Row>(
    ctx.em,
    `select ${COLUMNS} from access_requests r ${joinUser('r.user_id')} where r.source_type = ? and r.source_id = ? and r.user_id = ?`,
    [kind, sourceId, userId],
  );
  return row;
}

/**
 * POST /:sources/:id/access_requests: the caller asks to join. GitLab's policy: only without any access
 * to the source (direct or inherited), only where request_access_enabled, once (403 otherwise).
 */
async function request(ctx: RequestCtx, kind: SourceKind, idOrPath: string): Promise<AccessRequesterType> {
  const user = requireUser(ctx);
  const src = await source(ctx, kind, idOrPath);
  if (!src.requestAccessEnabled || src.level > 0) throw new ForbiddenError();
  const entity = await auditEntity(ctx, src);
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        await sqlRows(
          em,
          'insert into access_requests (source_type, source_id, user_id, requested_at) values (?, ?, ?, ?)',
          [kind, src.id, user.id, ctx.clock.now()],
        );
        await recordAudit(ctx, em, [
          {
            ...entity,
            targetType: 'User',
            targetId: user.id,
            targetDetails: user.username,
            action: { customMessage: 'Requested access' },
          },
        ]);
      }),
    () => new ForbiddenError(),
  );
  const row = await requestRow(ctx, kind, src.id, user.id);
  if (!row) throw new NotFoundError();
  return view(ctx, row);
}

/** PUT /:sources/:id/access_requests/:user_id/approve: the request becomes a membership (201, the Member). */
async function approve(
  ctx: RequestCtx,
  kind: SourceKind,
  idOrPath: string,
  userId: number,
  accessLevel?: number | null,
): Promise<MemberType> {
  requireUser(ctx);
  const level = accessLevel ?? AccessLevel.DEVELOPER;
  const allowed: readonly number[] = kind === 'group' ? GROUP_MEMBER_ACCESS_LEVELS : PROJECT_MEMBER_ACCESS_LEVELS;
  if (!allowed.includes(level)) throw ParamError.notInSet('access_level');
  const src = await source(ctx, kind, idOrPath);
  if (!(await requestRow(ctx, kind, src.id, userId))) throw new NotFoundError();
  if (!src.canAdmin) throw new ForbiddenError();
  const entity = await auditEntity(ctx, src);
  const now = ctx.clock.now();
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        const gone = await sqlRows(
          em,
          'delete from access_requests where source_type = ? and source_id = ? and user_id = ? returning id',
          [kind, src.id, userId],
        );
        if (gone.length === 0) throw new NotFoundError(); // approved or denied meanwhile
        await insertMembership(em, kind, src.id, userId, level, now);
        const username = await usernameOf(em, userId);
        await recordAudit(ctx, em, [
          {
            ...entity,
            targetType: 'User',
            targetId: userId,
            targetDetails: username ?? String(userId),
            action: { add: 'user_access', as: roleName(level) },
          },
        ]);
        await emitSystemEvents(ctx, em, () => memberEvent(em, kind, src.id, userId, 'create'));
      }),
    () => new ConflictError('Member already exists'),
  );
  forgetAccess(ctx);
  return findRow(ctx, src, userId);
}

/** DELETE /:sources/:id/access_requests/:user_id: denied by those who manage members, or withdrawn by the requester. */
async function deny(ctx: RequestCtx, kind: SourceKind, idOrPath: string, userId: number): Promise<boolean> {
  const user = requireUser(ctx);
  const src = await source(ctx, kind, idOrPath);
  const row = await requestRow(ctx, kind, src.id, userId);
  if (!row) throw new NotFoundError();
  if (!src.canAdmin && user.id !== userId) throw new ForbiddenError();
  const entity = await auditEntity(ctx, src);
  await ctx.em.transactional(async (em) => {
    // Of concurrent denials one deletes and records it; the request's only time is when it was made.
    await claimForDelete(ctx, em, {
      table: 'access_requests',
      where: 'source_type = ? and source_id = ? and user_id = ?',
      params: [kind, src.id, userId],
      missing: () => new NotFoundError(),
      modifiedColumn: 'requested_at',
    });
    await sqlRows(em, 'delete from access_requests where source_type = ? and source_id = ? and user_id = ?', [
      kind,
      src.id,
      userId,
    ]);
    await recordAudit(ctx, em, [
      {
        ...entity,
        targetType: 'User',
        targetId: userId,
        targetDetails: row.username,
        action: { customMessage: user.id === userId ? 'Withdrew access request' : 'Denied access request' },
      },
    ]);
  });
  return true;
}

/**
 * node(id)/nodes(ids): the access requests among these ids the caller may see: their own, and those of
 * the groups and projects whose members the caller manages (one statement; the caller's levels batched
 * by the access loaders, as the member routes' `canAdmin`).
 */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<AccessRequesterType[]> {
  const user = ctx.user;
  if (!user) return [];
  const rows = await sqlRows<Row & { source_type: SourceKind; source_id: number }>(
    ctx.em,
    `select r.source_type, r.source_id, ${COLUMNS} from access_requests r ${joinUser('r.user_id')} where r.id = any(?::int[]) order by r.id`,
    [pgArray(ids.map(Number))],
  );
  const levels = await Promise.all(
    rows.map((r) =>
      (r.source_type === 'group' ? ctx.loaders.groupLevel : ctx.loaders.projectLevel).load(Number(r.source_id)),
    ),
  );
  const manages = (r: (typeof rows)[number], i: number) =>
    (r.source_type === 'group' ? namespacePolicy.canAdminGroup : projectPolicy.canAdminProject)(user, levels[i]);
  return rows.filter((r, i) => Number(r.user_id) === user.id || manages(r, i)).map((r) => view(ctx, r));
}

export const accessRequestService = { list, listForSources, request, approve, deny, visibleByIds };
