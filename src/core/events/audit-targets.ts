import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../db/sql';
import { notificationOf, type NotificationMemo } from './notification-memo';

/** One target named by an audit notification: what changed, and whether it was added or removed. */
export interface AuditTarget {
  targetId: string;
  added: boolean;
  removed: boolean;
}

/** An audit_events row as stored (core/events/audit.ts `recordAudit`). */
export type AuditRow = {
  id: string;
  author_id: number | null;
  entity_id: number;
  entity_type: string;
  details: Record<string, unknown> | string;
  created_at: Date | string;
};

/** The audit event ids a NOTIFY on AUDIT_CHANNEL carries (core/events/audit.ts `recordAudit`). */
export function auditIds(payload: string): number[] {
  return payload
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** An event's details as an object (the driver gives jsonb parsed; a raw text is parsed here). */
export const auditDetails = (row: AuditRow): Record<string, unknown> =>
  (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>;

/**
 * The audit events a notification names, in id order: one statement per notification per instance,
 * whatever the number of subscribers (the notification's memo, given or carried by `em` while a
 * subscription handles it); without one, a statement of its own. The rows are shared: read them only.
 */
export function auditRows(
  em: EntityManager,
  payload: string,
  memo: NotificationMemo | undefined = notificationOf(em, payload),
): Promise<AuditRow[]> {
  const read = async () => {
    const ids = auditIds(payload);
    if (ids.length === 0) return [];
    return sqlRows<AuditRow>(em, 'select * from audit_events where id = any(?::bigint[]) order by id', [
      `{${ids.join(',')}}`,
    ]);
  };
  return memo ? memo.once('audit-rows', read) : read();
}

/**
 * The distinct targets of one type among the audit events a notification names, in event order
 * (`auditRows`): the live subscriptions of a module (featureFlagChanged, broadcastMessagesChanged,
 * runnerChanged) use the audit NOTIFY as their source and load the current object themselves.
 */
export async function auditTargets(em: EntityManager, payload: string, targetType: string): Promise<AuditTarget[]> {
  const out = new Map<string, AuditTarget>();
  for (const row of await auditRows(em, payload)) {
    const d = auditDetails(row);
    if (d.target_type !== targetType) continue;
    const targetId = String(d.target_id);
    const t = out.get(targetId) ?? { targetId, added: false, removed: false };
    t.added ||= d.add !== undefined && d.add !== null;
    t.removed ||= d.remove !== undefined && d.remove !== null;
    out.set(targetId, t);
  }
  return [...out.values()];
}
