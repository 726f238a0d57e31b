import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { auditTargets } from '../../core/events/audit-targets';
import { liveIterator } from '../../core/events/live';
import { globalIdOf } from '../../core/graphql/global-id';
import { policy } from '../access';
import { onBroadcastBoundary, tickWindow } from './broadcast-boundary-clock';
import { BroadcastMessage } from './broadcast-message.entity';
import { isActive } from './broadcast-message.service';
import { BroadcastMessageAction } from './broadcast-message.type';

/** What Subscription.broadcastMessagesChanged delivers. */
export interface BroadcastMessageChange {
  action: BroadcastMessageAction;
  /** The message's global id (`gid://gitlab/BroadcastMessage/<id>`), as `BroadcastMessage.id`. */
  broadcastMessageId: string;
  databaseId: number;
  broadcastMessage: BroadcastMessage | null;
}

const ids = (databaseId: number) => ({ broadcastMessageId: globalIdOf('BroadcastMessage', databaseId), databaseId });

/** Writes: the messages an audit notification names (target BroadcastMessage), as they are now. */
async function written(ctx: RequestCtx, payload: string): Promise<BroadcastMessageChange[]> {
  const targets = await auditTargets(ctx.em, payload, 'BroadcastMessage');
  if (targets.length === 0) return [];
  const found = new Map(
    (await ctx.em.find(BroadcastMessage, { id: { $in: targets.map((t) => Number(t.targetId)) } })).map((m) => [
      m.id,
      m,
    ]),
  );
  return targets.map((t) => {
    const m = found.get(Number(t.targetId)) ?? null;
    const action =
      t.removed || !m
        ? BroadcastMessageAction.DELETED
        : t.added
          ? BroadcastMessageAction.CREATED
          : BroadcastMessageAction.UPDATED;
    return { action, ...ids(Number(t.targetId)), broadcastMessage: m };
  });
}

/**
 * Time: the messages with a boundary (starts_at, or the instant after ends_at) in the tick's window
 * whose `active` differs between the window's start — or their last write, if later: the write's own
 * event already told their state then — and its end.
 */
async function crossed(ctx: RequestCtx, from: Date, to: Date): Promise<BroadcastMessageChange[]> {
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select * from broadcast_messages
      where (starts_at > ? and starts_at <= ?) or (ends_at + interval '1 millisecond' > ? and ends_at + interval '1 millisecond' <= ?)
      order by id`,
    [from, to, from, to],
  );
  const out: BroadcastMessageChange[] = [];
  for (const r of rows) {
    const m = ctx.em.map(BroadcastMessage, r as never);
    const since = m.updatedAt.getTime() > from.getTime() ? m.updatedAt : from;
    const now = isActive(m, to);
    if (isActive(m, since) === now) continue;
    out.push({
      action: now ? BroadcastMessageAction.ACTIVATED : BroadcastMessageAction.DEACTIVATED,
      ...ids(m.id),
      broadcastMessage: m,
    });
  }
  return out;
}

/**
 * Subscription.broadcastMessagesChanged: each message created, updated or deleted (the audit events'
 * commit NOTIFY, from any instance) and each message entering or leaving its window (this instance's
 * boundary timer, broadcast-boundary-clock.ts). Administrators only, like the broadcast message queries.
 */
export function broadcastMessageChanges(ctx: RequestCtx): Promise<AsyncIterableIterator<BroadcastMessageChange>> {
  return liveIterator(ctx, AUDIT_CHANNEL, {
    async load(fresh, payload) {
      if (!policy.isAdmin(fresh.user)) return [];
      const tick = tickWindow(payload);
      return tick ? crossed(fresh, tick.from, tick.to) : written(fresh, payload);
    },
    visible: async (fresh) => policy.isAdmin(fresh.user),
    local: (onPayload) => onBroadcastBoundary(ctx, onPayload),
  });
}
