import type { ParamSpec } from '../../core/params/coerce';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { defineRoutes } from '../../rest/route';
import { BroadcastMessageWire } from './broadcast-message.presenter';

// Primary-key lookup: non-integer → 400 "id is invalid"; beyond int4 → GitLab's generic 404 Not found.
const ID: Record<string, ParamSpec> = { id: { type: 'int', notFound: '' } };
const WHEN = 'ISO 8601 date-time';
const ATTRS: Record<string, ParamSpec> = {
  message: { type: 'string', arg: 'input.message' },
  starts_at: { type: 'string', arg: 'input.startsAt', description: WHEN },
  ends_at: { type: 'string', arg: 'input.endsAt', description: WHEN },
  color: { type: 'string', arg: 'input.color' },
  font: { type: 'string', arg: 'input.font' },
};
const tag = 'broadcast messages';

/** Spec 4.19–4.23 (administrators only: the root fields' @Allow). */
export const broadcastMessageRoutes = defineRoutes([
  {
    method: 'GET', path: '/broadcast_messages', field: 'Query.broadcastMessages', params: PAGE_PARAMS, paginated: true,
    shape: BroadcastMessageWire, summary: 'List broadcast messages, newest first (admin)', tag,
  },
  { method: 'GET', path: '/broadcast_messages/:id', field: 'Query.broadcastMessage', params: ID, shape: BroadcastMessageWire, summary: 'Get a broadcast message (admin)', tag },
  {
    method: 'POST', path: '/broadcast_messages', field: 'Mutation.createBroadcastMessage',
    params: { ...ATTRS, message: { ...ATTRS.message, required: true } }, shape: BroadcastMessageWire, summary: 'Create a broadcast message (admin)', tag,
  },
  {
    method: 'PUT', path: '/broadcast_messages/:id', field: 'Mutation.updateBroadcastMessage', params: { ...ID, ...ATTRS },
    shape: BroadcastMessageWire, summary: 'Update a broadcast message (admin)', tag,
  },
  { method: 'DELETE', path: '/broadcast_messages/:id', field: 'Mutation.deleteBroadcastMessage', params: ID, summary: 'Delete a broadcast message (admin)', tag },
]);
