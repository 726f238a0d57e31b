import type { RequestCtx } from '../../core/context/request-ctx';
import { NotFoundError } from '../../core/errors/domain-errors';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { pgArray, sqlRows } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { parseTimestamp } from '../../core/params/timestamp-param';
import { groupService } from '../groups';
import { namespacePolicy } from '../namespaces';
import { projectPolicy, projectService } from '../projects';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { auditDetails, auditRows, type AuditRow as Row } from '../../core/events/audit-targets';
import { liveIterator } from '../../core/events/live';
import type { NotificationMemo } from '../../core/events/notification-memo';
import type { CurrentUser } from '../../core/context/request-ctx';
import type {
  AuditEventDetailsType,
  AuditEventStreamArgs,
  AuditEventType,
  AuditEventsArgs,
  EntityAuditEventsArgs,
} from './audit-event.type';
import { auditEventPolicy } from './audit-event.policy';

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function view(r: Row): AuditEventType {
  const d = auditDetails(r);
  const details: AuditEventDetailsType = {
    change: str(d.change),
    from: str(d.from),
    to: str(d.to),
    add: str(d.add),
    as: str(d.as),
    remove: str(d.remove),
    customMessage: str(d.custom_message),
    authorName: String(d.author_name ?? ''),
    targetId: String(d.target_id ?? ''),
    targetType: String(d.target_type ?? ''),
    targetDetails: String(d.target_details ?? ''),
    ipAddress: str(d.ip_address),
    entityPath: String(d.entity_path ?? ''),
    impersonatedBy: str(d.impersonated_by),
  };
  return {
    id: String(r.id),
    authorId: r.author_id,
    entityId: r.entity_id,
    entityType: r.entity_type,
    details,
    createdAt: pgTime(r.created_at),
  };
}

/** Events newest first (index audit_events_entity serves an entity's, audit_events_created_at the window). */
function eventQuery(args: AuditEventsArgs): ListQuery<AuditEventType> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.createdAfter) {
    where.push('a.created_at >= ?');
    params.push(parseTimestamp('created_after', args.createdAfter));
  }
  if (args.createdBefore) {
    where.push('a.created_at <= ?');
    params.push(parseTimestamp('created_before', args.createdBefore));
  }
  if (args.entityType) {
    where.push('a.entity_type = ?');
    params.push(args.entityType);
  }
  if (args.entityId !== undefined && args.entityId !== null) {
    where.push('a.entity_id = ?');
    params.push(args.entityId);
  }
  return {
    select: 'a.*',
    from: 'audit_events a',
    where,
    params,
    orderBy: 'a.id',
    dir: 'desc',
    id: 'a.id',
    map: (r) => view(r as Row),
  };
}

/** GET /audit_events (GitLab EE's API): newest first, filtered by time window and entity. */
async function list(ctx: RequestCtx, args: AuditEventsArgs): Promise<Page<AuditEventType>> {
  return offsetPage(ctx.em, eventQuery(args), args);
}

/**
 * `Group.auditEvents` / `Project.auditEvents` of many groups or projects (the caller may read them: the
 * resolver checked): one bounded count and one page statement per argument set.
 */
function listForEntities(
  ctx: RequestCtx,
  entityType: 'Group' | 'Project',
  ids: number[],
  args: EntityAuditEventsArgs,
): Promise<Map<number, Page<AuditEventType>>> {
  return offsetPagesByKey(ctx.em, eventQuery({ ...args, entityType }), 'a.entity_id', ids, args);
}

/** GET /groups/:id/audit_events (GitLab EE): the group's own events, for its Owners (and administrators). */
async function ofGroup(ctx: RequestCtx, idOrPath: string, args: AuditEventsArgs): Promise<Page<AuditEventType>> {
  const group = await groupService.findOwned(ctx, idOrPath);
  return list(ctx, { ...args, entityType: 'Group', entityId: group.id });
}

/** GET /projects/:id/audit_events (GitLab EE): the project's own events, for its Masters (and administrators). */
async function ofProject(ctx: RequestCtx, idOrPath: string, args: AuditEventsArgs): Promise<Page<AuditEventType>> {
  const project = await projectService.findAdministrable(ctx, idOrPath);
  return list(ctx, { ...args, entityType: 'Project', entityId: project.id });
}

/** One event of the entity (GitLab EE's group/project audit event routes): another entity's event is 404 too. */
async function oneOf(ctx: RequestCtx, entityType: string, entityId: number, id: number): Promise<AuditEventType> {
  const [row] = await sqlRows<Row>(
    ctx.em,
    'select * from audit_events where id = ? and entity_type = ? and entity_id = ?',
    [id, entityType, entityId],
  );
  if (!row) throw new NotFoundError();
  return view(row);
}

async function oneOfGroup(ctx: RequestCtx, idOrPath: string, id: number): Promise<AuditEventType> {
  return oneOf(ctx, 'Group', (await groupService.findOwned(ctx, idOrPath)).id, id);
}

async function oneOfProject(ctx: RequestCtx, idOrPath: string, id: number): Promise<AuditEventType> {
  return oneOf(ctx, 'Project', (await projectService.findAdministrable(ctx, idOrPath)).id, id);
}

/** Lookup by primary key: GitLab's generic 404 "404 Not found". */
async function get(ctx: RequestCtx, id: number): Promise<AuditEventType> {
  const [row] = await sqlRows<Row>(ctx.em, 'select * from audit_events where id = ?', [id]);
  if (!row) throw new NotFoundError();
  return view(row);
}

/**
 * Which of these events the caller may read, by the rule of the lists (`Group.auditEvents` for the
 * group's Owners, `Project.auditEvents` for the project's Maintainers; administrators everything): the
 * group or project must be visible to the caller (GET /groups/:id would not be 404) and the caller's
 * level in it high enough. The visibility and levels of all the events' groups and projects load in
 * one batch per loader, whatever the number of events.
 */
async function readableAmong(ctx: RequestCtx, events: readonly AuditEventType[]): Promise<boolean[]> {
  if (auditEventPolicy.canReadAll(ctx.user)) return events.map(() => true);
  if (!ctx.user) return events.map(() => false);
  return Promise.all(
    events.map(async (e) => {
      if (e.entityType === 'Group') {
        const [group, level] = await Promise.all([
          groupService.visibleByIds(ctx, [e.entityId]),
          ctx.loaders.groupLevel.load(e.entityId),
        ]);
        return group.length > 0 && namespacePolicy.canAdminGroup(ctx.user, level);
      }
      if (e.entityType === 'Project') {
        const [project, level] = await Promise.all([
          projectService.visibleByIds(ctx, [e.entityId]),
          ctx.loaders.projectLevel.load(e.entityId),
        ]);
        return project.length > 0 && projectPolicy.canAdminProject(ctx.user, level);
      }
      return false;
    }),
  );
}

/** Whether the caller may read an event: the same rule as the three list routes. */
async function readable(ctx: RequestCtx, e: AuditEventType): Promise<boolean> {
  return (await readableAmong(ctx, [e]))[0];
}

/**
 * What a subscriber could receive of an event, decided without the database: its filter, then the
 * rule's shape (administrators everything; others only events of a group or project).
 */
const candidate = (args: AuditEventStreamArgs, viewer: CurrentUser) => (e: AuditEventType) =>
  (!args.entityType || e.entityType === args.entityType) &&
  (args.entityId === undefined || args.entityId === null || e.entityId === args.entityId) &&
  auditEventPolicy.mayReadEntityKind(viewer, e.entityType);

/**
 * Subscription.auditEventAdded: the events each commit's NOTIFY names (ids), as the caller may read
 * them. Per notification the rows are read once per instance (`auditRows`, shared by every subscriber)
 * and filtered in memory (`candidate`); only an event the subscriber could receive costs it a
 * re-authentication and the exact check, shared by the subscriptions of one user.
 */
function live(ctx: RequestCtx, args: AuditEventStreamArgs): Promise<AsyncIterableIterator<AuditEventType>> {
  return liveIterator(ctx, AUDIT_CHANNEL, {
    async select(payload, memo, viewer) {
      const events = await memo.once('audit-event-views', async () =>
        (await auditRows(ctx.em, payload, memo)).map(view),
      );
      return events.filter(candidate(args, viewer));
    },
    visible: (fresh: RequestCtx, e: AuditEventType, memo: NotificationMemo) =>
      memo.once(`audit-event-readable:${fresh.user?.id}:${auditEventPolicy.canReadAll(fresh.user)}:${e.id}`, () =>
        readable(fresh, e),
      ),
  });
}

/**
 * node(id)/nodes(ids): the events among these ids the caller may read by the lists' rule (`readableAmong`):
 * one statement for the events, then one batch per loader for their groups' and projects' checks.
 * Anonymous callers read none (no statement).
 */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<AuditEventType[]> {
  if (!ctx.user) return [];
  const events = (
    await sqlRows<Row>(ctx.em, 'select * from audit_events where id = any(?::bigint[])', [pgArray(ids.map(Number))])
  ).map(view);
  const ok = await readableAmong(ctx, events);
  return events.filter((_, i) => ok[i]);
}

export const auditEventService = {
  list,
  listForEntities,
  ofGroup,
  ofProject,
  oneOfGroup,
  oneOfProject,
  get,
  live,
  visibleByIds,
};
