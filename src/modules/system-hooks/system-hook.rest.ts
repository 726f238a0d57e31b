import { defineRoutes, type ParamException } from '../../rest/route';
import { SystemHookLogWire, SystemHookTestWire, SystemHookWire } from './system-hook.presenter';

// Primary-key lookup: non-integer → 400 "id is invalid"; beyond int4 → GitLab's generic 404 Not found.
const ID: Record<string, ParamException> = { id: { notFound: '' } };
const tag = 'system hooks';

/** GitLab 10.3's lib/api/system_hooks.rb (administrators only: the root fields' @Allow), plus the delivery log. */
export const systemHookRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/hooks',
    field: 'Query.systemHooks',
    paginated: true,
    shape: SystemHookWire,
    summary: 'List system hooks (admin)',
    tag,
  },
  {
    method: 'POST',
    path: '/hooks',
    field: 'Mutation.createSystemHook',
    shape: SystemHookWire,
    summary: 'Add a system hook (admin)',
    tag,
  },
  {
    method: 'GET',
    path: '/hooks/:id/events',
    field: 'Query.systemHookLogs',
    params: ID,
    paginated: true,
    shape: SystemHookLogWire,
    summary: "The last delivery attempts of a system hook, newest first (admin; this service's addition)",
    tag,
  },
  {
    method: 'GET',
    path: '/hooks/:id',
    field: 'Mutation.testSystemHook',
    params: ID,
    status: 200,
    shape: SystemHookTestWire,
    summary: "Test a system hook: sends GitLab's test event and answers it (admin; GitLab 10.3)",
    tag,
  },
  {
    // Current GitLab's test route (lib/api/hooks/test.rb): the same test event and answer, 201.
    method: 'POST',
    path: '/hooks/:id',
    field: 'Mutation.testSystemHook',
    params: ID,
    shape: SystemHookTestWire,
    summary: "Test a system hook: sends GitLab's test event and answers it (admin; current GitLab)",
    tag,
  },
  {
    method: 'DELETE',
    path: '/hooks/:id',
    field: 'Mutation.deleteSystemHook',
    params: ID,
    summary: 'Delete a system hook (admin)',
    tag,
  },
]);
