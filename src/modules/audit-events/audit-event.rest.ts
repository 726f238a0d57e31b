import { defineRoutes, type ParamException } from '../../rest/route';
import { AuditEventWire } from './audit-event.presenter';

const ID: Record<string, ParamException> = { id: { notFound: '' } };
const tag = 'audit events';

/** GitLab's audit events API (https://docs.gitlab.com/ee/api/audit_events.html), administrators only. */
export const auditEventRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/audit_events',
    field: 'Query.auditEvents',
    paginated: true,
    shape: AuditEventWire,
    summary: 'List audit events, newest first (admin)',
    tag,
  },
  {
    method: 'GET',
    path: '/groups/:id/audit_events',
    field: 'Query.groupAuditEvents',
    params: { id: { arg: 'groupId' } },
    paginated: true,
    shape: AuditEventWire,
    summary: "List a group's audit events (group Owners)",
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/audit_events',
    field: 'Query.projectAuditEvents',
    params: { id: { arg: 'projectId' } },
    paginated: true,
    shape: AuditEventWire,
    summary: "List a project's audit events (project Masters)",
    tag,
  },
  {
    method: 'GET',
    path: '/groups/:id/audit_events/:audit_event_id',
    field: 'Query.groupAuditEvent',
    params: { id: { arg: 'groupId' }, audit_event_id: { arg: 'id', notFound: '' } },
    shape: AuditEventWire,
    summary: "Get one of a group's audit events (group Owners)",
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/audit_events/:audit_event_id',
    field: 'Query.projectAuditEvent',
    params: { id: { arg: 'projectId' }, audit_event_id: { arg: 'id', notFound: '' } },
    shape: AuditEventWire,
    summary: "Get one of a project's audit events (project Masters)",
    tag,
  },
  {
    method: 'GET',
    path: '/audit_events/:id',
    field: 'Query.auditEvent',
    params: ID,
    shape: AuditEventWire,
    summary: 'Get an audit event (admin)',
    tag,
  },
]);
