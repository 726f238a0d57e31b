import { defineRoutes, type ParamException } from '../../rest/route';
import { BroadcastMessageWire } from './broadcast-message.presenter';

// Primary-key lookup: non-integer → 400 "id is invalid"; beyond int4 → GitLab's generic 404 Not found.
const ID: Record<string, ParamException> = { id: { notFound: '' } };
const tag = 'broadcast messages';

/** Spec 4.19–4.23 (administrators only: the root fields' @Allow); parameters derive from the inputs. */
export const broadcastMessageRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/broadcast_messages',
    field: 'Query.broadcastMessages',
    paginated: true,
    shape: BroadcastMessageWire,
    summary: 'List broadcast messages, newest first (admin)',
    tag,
  },
  {
    method: 'GET',
    path: '/broadcast_messages/:id',
    field: 'Query.broadcastMessage',
    params: ID,
    shape: BroadcastMessageWire,
    summary: 'Get a broadcast message (admin)',
    tag,
  },
  {
    method: 'POST',
    path: '/broadcast_messages',
    field: 'Mutation.createBroadcastMessage',
    shape: BroadcastMessageWire,
    summary: 'Create a broadcast message (admin)',
    tag,
  },
  {
    method: 'PUT',
    path: '/broadcast_messages/:id',
    field: 'Mutation.updateBroadcastMessage',
    params: ID,
    shape: BroadcastMessageWire,
    summary: 'Update a broadcast message (admin)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/broadcast_messages/:id',
    field: 'Mutation.deleteBroadcastMessage',
    params: ID,
    summary: 'Delete a broadcast message (admin)',
    tag,
  },
]);
