import { defineRoutes } from '../../rest/route';
import { NamespaceWire } from './namespace.presenter';

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
    method: 'GET',
    path: '/namespaces/:id',
    field: 'Query.namespace',
    params: { id: { arg: 'fullPath', description: 'Integer id or URL-encoded full path.' } },
    shape: NamespaceWire,
    summary: 'Get a namespace by id or full path',
    tag,
  },
]);
