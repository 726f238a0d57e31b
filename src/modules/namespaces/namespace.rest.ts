import { defineRoutes } from '../../rest/route';
import { NamespaceExistsWire, NamespaceWire } from './namespace.presenter';

const tag = 'namespaces';

/** https://docs.gitlab.com/ee/api/namespaces.html; parameters derive from the GraphQL arguments. */
export const namespaceRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/namespaces',
    field: 'Query.namespaces',
    paginated: true,
    shape: NamespaceWire,
    summary: "List the caller's namespaces",
    tag,
  },
  {
    // Later GitLab: `{ "exists": …, "suggests": […] }` (docs/client-routes.md).
    method: 'GET',
    path: '/namespaces/:namespace/exists',
    field: 'Query.namespaceExists',
    params: { namespace: { arg: 'path' } },
    shape: NamespaceExistsWire,
    summary: 'Whether a namespace path is taken',
    tag,
  },
  {
    method: 'GET',
    path: '/namespaces/:id',
    field: 'Query.namespace',
    params: { id: { arg: 'fullPath', description: 'Integer id or URL-encoded full path.' } },
    shape: NamespaceWire,
    summary: 'Get a namespace by id or full path',
    tag,
  },
]);
