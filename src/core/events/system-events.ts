import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../context/request-ctx';
import { CACHE_CHANNEL } from '../db/shared-cache';
import type { SystemEvent } from './system-event-catalogue';

/**
 * System events (GitLab 10.3's system hooks, "System hooks" in GitLab's docs): what a
 * module emits when a user, group, project or membership is created, renamed, transferred or removed.
 * A module calls `emitSystemEvents` on the write's own transaction, next to its audit entries
 * (core/events/audit.ts), so an event exists if and only if its change committed. The rows form an
 * outbox (`system_hook_events`) that the system hooks module delivers from, at least once, in order
 * per hook, from any instance (modules/system-hooks/delivery.ts).
 *
 * Cost when no hook is configured: one cached lookup (a hook created on another instance is known here
 * once its NOTIFY arrives, milliseconds after its commit). With hooks, one INSERT, no lock: each row
 * carries its transaction's id (`txid`), and deliverers read the outbox in (txid, id) order, only below
 * the oldest transaction still running (`pg_snapshot_xmin`), so a row that commits later can never sort
 * before one already delivered (docs/rest.md#system-hooks). `OUTBOX_READY` is that condition.
 */
export type { SystemEvent };

/** The key of the shared cache whose invalidation wakes every instance's deliverer (core/db/shared-cache.ts). */
export const OUTBOX_WAKE_KEY = 'system_hooks:outbox';
/** SQL: outbox row `e` belongs to a finished transaction older than every running one (safe to deliver in order). */
export const OUTBOX_READY = 'e.txid < pg_snapshot_xmin(pg_current_snapshot())';

/** Ruby's Time#xmlschema of a UTC time: seconds, `Z`. */
export const xmlschema = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The payload as GitLab's SystemHooksService builds it: event_name, created_at, updated_at, then the model's keys. */
export function payloadOf(e: SystemEvent): Record<string, unknown> {
  return { event_name: e.name, created_at: xmlschema(e.createdAt), updated_at: xmlschema(e.updatedAt), ...e.data };
}

/** Whether any system hook exists, cached per instance; `invalidate`d by every hook create and delete. */
export const HOOKS_EXIST_KEY = 'system_hooks:exist';

async function hooksExist(ctx: RequestCtx, em: EntityManager): Promise<boolean> {
  return ctx.cache.get(HOOKS_EXIST_KEY, async () => {
    // On the write's own transaction: a pooled connection here could wait for ever on a pool whose
    // connections all wait for this transaction's row locks (ten parallel creates, pool of five).
    const [row] = (await em
      .getConnection()
      .execute('select exists (select 1 from system_hooks) as any', [], 'all', em.getTransactionContext())) as {
      any: boolean;
    }[];
    return row.any;
  });
}

/**
 * Appends the events `build` gives on `em`'s transaction (call it inside the write's `em.transactional`,
 * before a delete, so that the builder still sees the rows). Without any system hook the builder is
 * not called and nothing is written: the cost is one cached lookup.
 */
export async function emitSystemEvents(
  ctx: RequestCtx,
  em: EntityManager,
  build: () => SystemEvent[] | Promise<SystemEvent[]>,
): Promise<void> {
  if (!(await hooksExist(ctx, em))) return;
  const events = await build();
  if (events.length === 0) return;
  const conn = em.getConnection();
  const tx = em.getTransactionContext();
  // At commit every instance's deliverer wakes (never for a rolled-back write): the shared cache's NOTIFY
  // of OUTBOX_WAKE_KEY (ctx.cache.invalidate, nothing is cached under it), sent by the insert's own
  // statement to save a round trip per write.
  await conn.execute(
    `with hooked as (select 1 where exists (select 1 from system_hooks)),
     added as (
       insert into system_hook_events (event_name, payload, created_at)
       select e->>'event_name', e, ? from hooked, jsonb_array_elements(?::jsonb) with ordinality as t(e, n) order by n
       returning id)
     select pg_notify(?, ?) from (select count(*) as n from added) c where c.n > 0`,
    [ctx.clock.now(), JSON.stringify(events.map(payloadOf)), CACHE_CHANNEL, OUTBOX_WAKE_KEY],
    'all',
    tx,
  );
}
