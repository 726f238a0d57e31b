import type { RequestCtx } from '../../core/context/request-ctx';
import { defineRoutes, type ParamException } from '../../rest/route';
import { PagesDomainBasicWire, PagesDomainWire } from './pages-domain.presenter';
import { instanceFilter, projectFilter } from './pages-domain.service';

/** Parameters derive from the GraphQL arguments (docs/adding-a-resource.md); these are the exceptions. */
const PROJECT: Record<string, ParamException> = { id: { arg: 'projectId' } };
/** Grape: `optional :certificate, allow_blank: false, types: [File, String]` (and the same for key). */
const PEM: Record<string, ParamException> = { certificate: { allowBlank: false }, key: { allowBlank: false } };
/** Multipart file parameters (curl -F certificate=@cert.pem): only these two routes accept file parts. */
const FILES = ['certificate', 'key'];
/** Project lookup and the pages switch answer before parameter validation (spec 4.25-4.29). */
const filter = async (ctx: RequestCtx, path: Record<string, string>) => void (await projectFilter(ctx, path.id));
const tag = 'pages_domains';

export const pagesDomainRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/pages/domains',
    field: 'Query.pagesDomains',
    filter: instanceFilter,
    paginated: true,
    shape: PagesDomainBasicWire,
    summary: 'List every pages domain (administrators)',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/pages/domains',
    field: 'Query.projectPagesDomains',
    params: PROJECT,
    filter,
    paginated: true,
    shape: PagesDomainWire,
    summary: "List a project's pages domains",
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/pages/domains/:domain',
    field: 'Query.pagesDomain',
    params: PROJECT,
    filter,
    shape: PagesDomainWire,
    summary: 'Get a pages domain',
    tag,
  },
  {
    // gate: the project lookup and the pages switch answer before a (multipart) body is read.
    method: 'POST',
    path: '/projects/:id/pages/domains',
    field: 'Mutation.createPagesDomain',
    filter,
    gate: filter,
    params: { ...PROJECT, domain: {}, ...PEM },
    rules: [{ allOrNoneOf: ['certificate', 'key'] }],
    files: FILES,
    shape: PagesDomainWire,
    summary: 'Create a pages domain (certificate and key: multipart files or strings)',
    tag,
  },
  {
    method: 'PUT',
    path: '/projects/:id/pages/domains/:domain',
    field: 'Mutation.updatePagesDomain',
    filter,
    gate: filter,
    params: { ...PROJECT, domain: {}, ...PEM },
    files: FILES,
    shape: PagesDomainWire,
    summary: 'Update the certificate and key of a pages domain',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/pages/domains/:domain',
    field: 'Mutation.deletePagesDomain',
    params: PROJECT,
    filter,
    summary: 'Delete a pages domain',
    tag,
  },
]);
