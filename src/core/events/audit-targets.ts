import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../db/sql';

/** One target named by an audit notification: what changed, and whether it was added or removed. */
export interface AuditTarget {
  targetId: string;
  added: boolean;
  removed: boolean;
}

/** The audit event ids a NOTIFY on AUDIT_CHANNEL carries (core/events/audit.ts `recordAudit`). */
export function auditIds(payload: string): number[] {
  return payload.split(',').map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
}

/**
 * The distinct targets of one type among the audit events a notification names, in event order
 * (one query): the live subscriptions of a module (featureFlagChanged, broadcastMessagesChanged,
 * runnerChanged) use the audit NOTIFY as their source and load the current object themselves.
 */
export async function auditTargets(em: EntityManager, payload: string, targetType: string): Promise<AuditTarget[]> {
  const ids = auditIds(payload);
  if (ids.length === 0) return [];
  const rows = await sqlRows<{ target_id: string; added: boolean; removed: boolean }>(
    em,
    `select details->>'target_id' as target_id, details->>'add' is not null as added, details->>'remove' is not null as removed
       from audit_events where id = any(?::bigint[]) and details->>'target_type' = ? order by id`,
    [`{${ids.join(',')}}`, targetType],
  );
  const out = new Map<string, AuditTarget>();
  for (const r of rows) {
    const t = out.get(r.target_id) ?? { targetId: r.target_id, added: false, removed: false };
    t.added ||= r.added;
    t.removed ||= r.removed;
    out.set(r.target_id, t);
  }
  return [...out.values()];
}
