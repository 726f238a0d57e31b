import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { reserveRowId } from '../../core/crypto/reserve-row-id';
import { pgTime } from '../../core/db/pg-time';
import { pgArray, sqlRows } from '../../core/db/sql';
import { policy } from '../access';
import { NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import { INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import { HOOKS_EXIST_KEY } from '../../core/events/system-events';
import { BlockedUrlError, checkOutboundUrlAtSave } from '../../core/http/outbound';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import { deliveryConfig, DISABLE_AFTER, hookTokenSlot, localRequestsAllowed, sendToHook } from './delivery';
import type {
  CreateSystemHookInput,
  SystemHookLogType,
  SystemHookTestDataType,
  SystemHookType,
} from './system-hook.type';
import { randomUUID } from 'node:crypto';
import { longerThan } from '../../core/validation/char-length';

type HookRow = {
  id: number;
  url: string;
  token_sealed: string | null;
  push_events: boolean;
  tag_push_events: boolean;
  repository_update_events: boolean;
  enable_ssl_verification: boolean;
  created_at: Date | string;
  failures: number;
  disabled_until: Date | string | null;
  pending: string | number;
};

// disabled_until on the database's clock, the one that set next_attempt_at: a failing hook's next attempt still ahead.
const SELECT = `h.*, case when h.failures > 0 and h.next_attempt_at > now() then h.next_attempt_at end as disabled_until,
  (select count(*) from (select 1 from system_hook_events e where (e.txid, e.id) > (h.last_txid, h.last_event_id) limit 10001) p) as pending`;

function view(r: HookRow): SystemHookType {
  return {
    id: r.id,
    url: r.url,
    createdAt: pgTime(r.created_at),
    pushEvents: r.push_events,
    tagPushEvents: r.tag_push_events,
    repositoryUpdateEvents: r.repository_update_events,
    enableSslVerification: r.enable_ssl_verification,
    alertStatus: r.failures >= DISABLE_AFTER ? 'temporarily_disabled' : 'executable',
    disabledUntil: r.disabled_until ? pgTime(r.disabled_until) : null,
    failures: r.failures,
    pending: Number(r.pending),
  };
}

/** GET /hooks: oldest first, paginated (later GitLab; 10.3 answered all hooks at once). */
function list(ctx: RequestCtx, args: PageArgs): Promise<Page<SystemHookType>> {
  return offsetPage(
    ctx.em,
    {
      select: SELECT,
      from: 'system_hooks h',
      where: [],
      params: [],
      orderBy: 'h.id',
      dir: 'asc',
      id: 'h.id',
      map: (r) => view(r as HookRow),
    },
    args,
  );
}

async function row(ctx: RequestCtx, id: number): Promise<HookRow | undefined> {
  const [r] = await sqlRows<HookRow>(ctx.em, `select ${SELECT} from system_hooks h where h.id = ?`, [id]);
  return r;
}

async function get(ctx: RequestCtx, id: number): Promise<SystemHookType> {
  const r = await row(ctx, id);
  if (!r) throw new NotFoundError('System hook');
  return view(r);
}

/** The URL rules (400 {"message":{"url":[…]}}): later GitLab's UrlBlocker texts; DNS is judged again at delivery. */
async function checkUrl(ctx: RequestCtx, url: string): Promise<void> {
  if (url.trim() === '') throw new ValidationError({ url: ["can't be blank"] });
  if (longerThan(url, 2048)) throw new ValidationError({ url: ['is too long (maximum is 2048 characters)'] });
  try {
    await checkOutboundUrlAtSave(url, await localRequestsAllowed(ctx.em));
  } catch (e) {
    if (e instanceof BlockedUrlError) throw new ValidationError({ url: [e.message] });
    throw e;
  }
}

/** POST /hooks. The hook receives events committed from now on (its cursor starts at the outbox's end). */
async function create(ctx: RequestCtx, input: CreateSystemHookInput): Promise<SystemHookType> {
  await checkUrl(ctx, input.url);
  if (input.token && longerThan(input.token, 255))
    throw new ValidationError({ token: ['is too long (maximum is 255 characters)'] });
  const now = ctx.clock.now();
  const id = await ctx.em.transactional(async (em) => {
    const hookId = await reserveRowId(em, 'system_hooks');
    const sealed = input.token ? ctx.secrets.seal(input.token, hookTokenSlot(hookId)) : null;
    await sqlRows(
      em,
      // The cursor starts below every transaction still running: the hook gets what commits from now on
      // (and possibly a few events committed just before: at least once).
      `insert into system_hooks (id, url, token_sealed, push_events, tag_push_events, repository_update_events, enable_ssl_verification, created_at, updated_at, last_txid, last_event_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, pg_snapshot_xmin(pg_current_snapshot()), 0)`,
      [
        hookId,
        input.url,
        sealed,
        input.pushEvents ?? true,
        input.tagPushEvents ?? false,
        input.repositoryUpdateEvents ?? false,
        input.enableSslVerification ?? true,
        now,
        now,
      ],
    );
    await recordAudit(ctx, em, [
      {
        ...INSTANCE_SCOPE,
        targetType: 'SystemHook',
        targetId: hookId,
        targetDetails: redactedUrl(input.url),
        action: { add: 'system_hook' },
      },
    ]);
    await ctx.cache.invalidate(em, HOOKS_EXIST_KEY);
    return hookId;
  });
  return get(ctx, id);
}

/** DELETE /hooks/:id: 404 "System hook Not Found" (GitLab 10.3); its queue and log go with it. */
async function remove(ctx: RequestCtx, id: number): Promise<boolean> {
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('system_hooks', id, 'System hook'));
    // The claimed row is still there (locked): its URL for the audit event.
    const [gone] = await sqlRows<{ url: string }>(em, 'delete from system_hooks where id = ? returning url', [id]);
    await recordAudit(ctx, em, [
      {
        ...INSTANCE_SCOPE,
        targetType: 'SystemHook',
        targetId: id,
        targetDetails: redactedUrl(gone.url),
        action: { remove: 'system_hook' },
      },
    ]);
    await ctx.cache.invalidate(em, HOOKS_EXIST_KEY);
  });
  return true;
}

/** GitLab 10.3's test payload (lib/api/system_hooks.rb). */
const TEST_DATA = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
};

/**
 * GET /hooks/:id (GitLab 10.3): sends the test payload to the hook now, whatever the receiver answers,
 * and answers the payload. A missing hook: 404 "Not found" (10.3's `SystemHook.find`).
 */
async function test(ctx: RequestCtx, id: number): Promise<SystemHookTestDataType> {
  const r = await row(ctx, id);
  if (!r) throw new NotFoundError();
  const timeoutMs = deliveryConfig(ctx.env).timeoutMs;
  await sendToHook(ctx.em, ctx.secrets, r, TEST_DATA, {
    timeoutMs,
    eventId: null,
    uuid: randomUUID(),
    trigger: 'system_hooks',
    allowLocal: await localRequestsAllowed(ctx.em),
  });
  return {
    eventName: TEST_DATA.event_name,
    name: TEST_DATA.name,
    path: TEST_DATA.path,
    projectId: TEST_DATA.project_id,
    ownerName: TEST_DATA.owner_name,
    ownerEmail: TEST_DATA.owner_email,
  };
}

type LogRow = {
  id: string;
  trigger: string;
  url: string;
  event_name: string | null;
  response_status: number | null;
  response_body: string;
  execution_duration: number;
  internal_error_message: string | null;
  created_at: Date | string;
};

/** A delivery log row as the GraphQL type (its `id` the row's: the gid and REST's integer id). */
const logView = (r: Record<string, unknown>): SystemHookLogType => {
  const l = r as LogRow;
  return {
    id: Number(l.id),
    trigger: l.trigger,
    eventName: l.event_name,
    url: l.url,
    responseStatus: l.response_status,
    responseBody: l.response_body,
    executionDuration: l.execution_duration,
    internalErrorMessage: l.internal_error_message,
    createdAt: pgTime(l.created_at),
  };
};
const LOG_SELECT = `l.*, case when l.event_id is null then null else l.trigger end as event_name`;

/** node(id) of delivery logs: administrators only (the hooks' own rule). */
async function logsByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<SystemHookLogType[]> {
  if (!policy.isAdmin(ctx.user)) return [];
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select ${LOG_SELECT} from system_hook_logs l where l.id = any(?::bigint[])`,
    [pgArray(ids.map(Number))],
  );
  return rows.map(logView);
}

/** GET /hooks/:id/events: the last deliveries, newest first. */
async function logs(ctx: RequestCtx, id: number, args: PageArgs): Promise<Page<SystemHookLogType>> {
  if (!(await row(ctx, id))) throw new NotFoundError('System hook');
  const map = logView;
  return offsetPage(
    ctx.em,
    {
      select: LOG_SELECT,
      from: 'system_hook_logs l',
      where: ['l.hook_id = ?'],
      params: [id],
      orderBy: 'l.id',
      dir: 'desc',
      id: 'l.id',
      map,
    },
    args,
  );
}

/** A URL for the audit log: credentials and query string (where tokens hide) left out. */
function redactedUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

export const systemHookService = { list, get, create, remove, test, logs, logsByIds };
