import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../context/request-ctx';
import { deleteInBatches } from '../db/sql';

/**
 * Audit events (GitLab EE's audit events, "Audit events API"): one row per change, appended
 * on the write's own transaction, so an event exists if and only if its change committed. A NOTIFY on
 * the same transaction (delivered at commit) wakes consumers on every instance.
 *
 * A service declares what changed; the request supplies who (the token's user; under Sudo also the
 * administrator acting), from where (client address) and which request.
 */
export type AuditAction =
  | { change: string; from: unknown; to: unknown }
  | { add: string; as?: string }
  | { remove: string }
  | { customMessage: string };

export interface AuditEntry {
  /** GitLab's entity: 'User', 'Group', 'Project', or the instance (`INSTANCE_SCOPE`, id 1). */
  entityType: string;
  entityId: number;
  entityPath?: string;
  /** What was changed: e.g. 'ApplicationSetting', 'Feature', 'BroadcastMessage', 'Ci::Runner'. */
  targetType: string;
  targetId: number | string;
  /** A human name of the target (a flag's name, a runner's description). */
  targetDetails?: string;
  action: AuditAction;
  /**
   * What a live subscription needs to know of a removed target to decide who may hear of its removal
   * (a deleted group's visibility level): kept in the event's details as `target_state`, which neither
   * REST nor GraphQL presents (their audit event shapes name their keys).
   */
  targetState?: Record<string, string | number | boolean>;
}

/** The entity of instance-wide changes (later GitLab's Gitlab::Audit::InstanceScope). */
export const INSTANCE_SCOPE = { entityType: 'Gitlab::Audit::InstanceScope', entityId: 1 } as const;

export const AUDIT_CHANNEL = 'audit_events';

/** Secret values are never stored: their changes are recorded as filtered. */
export const FILTERED = '[FILTERED]';

const text = (v: unknown): string | null =>
  v === null || v === undefined
    ? null
    : Array.isArray(v)
      ? v.join(', ')
      : v instanceof Date
        ? v.toISOString()
        : String(v);

/** Appends `entries` on `em`'s transaction (call it inside the write's `em.transactional`). */
export function recordAudit(ctx: RequestCtx, em: EntityManager, entries: AuditEntry[]): Promise<void> {
  return append(em, entries, {
    author: ctx.user ?? null,
    ip: ctx.request?.ip ?? null,
    requestId: ctx.request?.id ?? null,
    sudoBy: ctx.request?.sudoBy,
    at: ctx.clock.now(),
  });
}

/**
 * The same for a change made outside any request (a maintenance command such as
 * `npm run secrets:reset-lost`): `author` is the administrator it acts for; no address or request id.
 */
export function recordAuditAs(
  em: EntityManager,
  author: { id: number; name: string },
  entries: AuditEntry[],
  at: Date = new Date(),
): Promise<void> {
  return append(em, entries, { author, ip: null, requestId: null, at });
}

interface Origin {
  author: { id: number; name: string } | null;
  ip: string | null;
  requestId: string | null;
  sudoBy?: string;
  at: Date;
}

async function append(em: EntityManager, entries: AuditEntry[], origin: Origin): Promise<void> {
  if (entries.length === 0) return;
  const { author } = origin;
  const values: string[] = [];
  const params: unknown[] = [];
  for (const e of entries) {
    const details: Record<string, unknown> = {};
    const a = e.action;
    if ('change' in a) Object.assign(details, { change: a.change, from: text(a.from) ?? '', to: text(a.to) ?? '' });
    else if ('add' in a) Object.assign(details, { add: a.add }, a.as ? { as: a.as } : {});
    else if ('remove' in a) details.remove = a.remove;
    else details.custom_message = a.customMessage;
    Object.assign(details, {
      author_name: author?.name ?? 'An unauthenticated user',
      target_id: e.targetId,
      target_type: e.targetType,
      target_details: e.targetDetails ?? String(e.targetId),
      ip_address: origin.ip,
      entity_path: e.entityPath ?? '',
    });
    if (e.targetState) details.target_state = e.targetState;
    if (origin.sudoBy) details.impersonated_by = origin.sudoBy;
    values.push('(?, ?, ?, ?::jsonb, ?, ?, ?)');
    params.push(
      author?.id ?? null,
      e.entityId,
      e.entityType,
      JSON.stringify(details),
      origin.ip,
      origin.requestId,
      origin.at,
    );
  }
  const conn = em.getConnection();
  const tx = em.getTransactionContext();
  const rows = (await conn.execute(
    `insert into audit_events (author_id, entity_id, entity_type, details, ip_address, request_id, created_at) values ${values.join(', ')} returning id`,
    params,
    'all',
    tx,
  )) as { id: string }[];
  await conn.execute('select pg_notify(?, ?)', [AUDIT_CHANNEL, rows.map((r) => r.id).join(',')], 'all', tx);
}

export interface AttributeDiff {
  name: string;
  from: unknown;
  to: unknown;
  /** A credential: recorded as FILTERED. */
  secret?: boolean;
}

/** One `change` action per attribute that changed (from → to), secrets filtered. */
export function changedActions(diff: AttributeDiff[]): AuditAction[] {
  return diff
    .filter((d) => text(d.from) !== text(d.to))
    .map((d) => ({ change: d.name, from: d.secret ? FILTERED : d.from, to: d.secret ? FILTERED : d.to }));
}

/** One `change` entry per changed attribute of `base`'s target. */
export function changes(base: Omit<AuditEntry, 'action'>, diff: AttributeDiff[]): AuditEntry[] {
  return changedActions(diff).map((action) => ({ ...base, action }));
}

/**
 * AUDIT_EVENTS_RETENTION_DAYS: deletes events older than `days` in batches (core/db/sql.ts
 * `deleteInBatches`) until none is left; returns how many.
 */
export function pruneAuditEvents(em: EntityManager, days: number): Promise<number> {
  return deleteInBatches(em, 'audit_events', 'created_at < now() - make_interval(days => ?)', [days]);
}
