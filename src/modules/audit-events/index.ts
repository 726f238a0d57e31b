import { defineModule } from '../../core/module/app-module';
import { AuditEventResolver } from './audit-event.resolver';
import {
  GroupAuditEventsResolver,
  ProjectAuditEventsResolver,
  entityAuditEventLoaders,
} from './entity-audit-events.resolver';
import { auditEventService } from './audit-event.service';
import { nodeDef } from '../../core/graphql/node';
import { auditEventRoutes } from './audit-event.rest';
import { Migration20261202130000AuditEvents } from './migrations/Migration20261202130000_audit_events';

/** Audit events: written by other modules' services through core/events/audit.ts, read here. */
export const auditEventsModule = defineModule({
  name: 'audit-events',
  nodes: [nodeDef({ type: 'AuditEvent', gidClass: 'AuditEvent', ids: 'bigint', load: auditEventService.visibleByIds })],
  migrations: [{ name: 'Migration20261202130000_audit_events', class: Migration20261202130000AuditEvents }],
  resolvers: [AuditEventResolver, GroupAuditEventsResolver, ProjectAuditEventsResolver],
  loaders: entityAuditEventLoaders,
  routes: auditEventRoutes,
});
