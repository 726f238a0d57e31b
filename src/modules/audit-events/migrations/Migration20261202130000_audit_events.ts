import { Migration } from '@mikro-orm/migrations';

/**
 * Audit events (GitLab's EE audit events API shape; docs/rest.md#audit-events): appended by each write in
 * its own transaction (core/events/audit.ts), so an event exists exactly when its change committed.
 * Indexes: the admin list (id desc), each filter (entity, time, author).
 */
export class Migration20261202130000AuditEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table audit_events (
        id bigserial primary key,
        author_id integer null,
        entity_id integer not null,
        entity_type varchar(100) not null,
        details jsonb not null,
        ip_address varchar(64) null,
        request_id varchar(128) null,
        created_at timestamptz not null default now()
      );`);
    this.addSql('create index audit_events_entity on audit_events (entity_type, entity_id, id);');
    this.addSql('create index audit_events_created_at on audit_events (created_at, id);');
    this.addSql('create index audit_events_author on audit_events (author_id, id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table audit_events;');
  }
}
