import { computed, int, obj, shape, str, time } from '../../core/wire/wire';

/**
 * REST's `id` is a JSON number, as GitLab sends it (and OpenAPI says: integer). REST selects it as
 * `databaseId`, which GraphQL types `ID` here (a string: `audit_events.id` is a bigserial, beyond
 * GraphQL's 32-bit Int), so the number is made here. Exact: ids stay far below 2^53 (9·10^15 events).
 */
const numericId = (v: unknown): number => Number(v);

/** GitLab EE's Entities::AuditEvent details: only the keys an event has. */
export const AuditEventDetailsWire = shape('AuditEventDetails', {
  change: str({ omitIfNull: true }),
  from: str({ omitIfNull: true }),
  to: str({ omitIfNull: true }),
  add: str({ omitIfNull: true }),
  as: str({ omitIfNull: true }),
  remove: str({ omitIfNull: true }),
  custom_message: str({ omitIfNull: true }),
  author_name: str(),
  target_id: str(),
  target_type: str(),
  target_details: str(),
  ip_address: str({ omitIfNull: true }),
  entity_path: str(),
  impersonated_by: str({ omitIfNull: true }),
});

/** GitLab EE's Entities::AuditEvent: id, author_id, entity_id, entity_type, details, created_at. */
export const AuditEventWire = shape('AuditEvent', {
  id: computed('id', 'integer', numericId),
  author_id: int({ nullable: true }),
  entity_id: int(),
  entity_type: str(),
  details: obj(AuditEventDetailsWire),
  created_at: time(),
});
