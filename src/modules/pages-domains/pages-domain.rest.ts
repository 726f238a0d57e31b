import type { RequestCtx } from '../../core/context/request-ctx';
import type { ParamSpec } from '../../core/params/coerce';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { defineRoutes } from '../../rest/route';
import { PagesDomainBasicWire, PagesDomainWire } from './pages-domain.presenter';
import { instanceFilter, projectFilter } from './pages-domain.service';

const PROJECT: Record<string, ParamSpec> = { id: { type: 'id', arg: 'projectId' } };
const DOMAIN: Record<string, ParamSpec> = { domain: { type: 'string', required: true } };
const PEM = (arg: string, description: string): ParamSpec => ({ type: 'string', arg, description });
/** Project lookup and the pages switch answer before parameter validation (spec 4.25-4.29). */
const filter = async (ctx: RequestCtx, path: Record<string, string>) => void (await projectFilter(ctx, path.id));
const tag = 'pages_domains';

export const pagesDomainRoutes = defineRoutes([
  {
    method: 'GET', path: '/pages/domains', field: 'Query.pagesDomains', params: PAGE_PARAMS, filter: instanceFilter,
    paginated: true, shape: PagesDomainBasicWire, summary: 'List every pages domain (administrators)', tag,
  },
  {
    method: 'GET', path: '/projects/:id/pages/domains', field: 'Query.projectPagesDomains', params: { ...PROJECT, ...PAGE_PARAMS }, filter,
    paginated: true, shape: PagesDomainWire, summary: "List a project's pages domains", tag,
  },
  {
    method: 'GET', path: '/projects/:id/pages/domains/:domain', field: 'Query.pagesDomain', params: { ...PROJECT, ...DOMAIN }, filter,
    shape: PagesDomainWire, summary: 'Get a pages domain', tag,
  },
  {
    method: 'POST', path: '/projects/:id/pages/domains', field: 'Mutation.createPagesDomain', filter,
    params: {
      ...PROJECT,
      domain: { type: 'string', required: true, arg: 'input.domain' },
      certificate: PEM('input.certificate', 'PEM certificate, intermediates following (file or string)'),
      key: PEM('input.key', 'PEM private key (file or string)'),
    },
    shape: PagesDomainWire, summary: 'Create a pages domain', tag,
  },
  {
    method: 'PUT', path: '/projects/:id/pages/domains/:domain', field: 'Mutation.updatePagesDomain', filter,
    params: { ...PROJECT, ...DOMAIN, certificate: PEM('input.certificate', 'PEM certificate (file or string)'), key: PEM('input.key', 'PEM private key (file or string)') },
    shape: PagesDomainWire, summary: 'Update the certificate and key of a pages domain', tag,
  },
  {
    method: 'DELETE', path: '/projects/:id/pages/domains/:domain', field: 'Mutation.deletePagesDomain', params: { ...PROJECT, ...DOMAIN }, filter,
    summary: 'Delete a pages domain', tag,
  },
]);
