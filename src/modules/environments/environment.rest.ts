import type { ParamSpec } from '../../core/params/coerce';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { defineRoutes } from '../../rest/route';
import { EnvironmentWire } from './environment.presenter';

const PROJECT: Record<string, ParamSpec> = { id: { type: 'id', arg: 'projectId' } };
const ENVIRONMENT: Record<string, ParamSpec> = { environment_id: { type: 'int', notFound: '', arg: 'environmentId' } };
/** Grape's `absence` rule on both writes (spec 4.31, 4.32). */
const SLUG: ParamSpec = { type: 'string', absence: 'is automatically generated and cannot be changed', arg: '-' };
const tag = 'environments';

export const environmentRoutes = defineRoutes([
  {
    method: 'GET', path: '/projects/:id/environments', field: 'Query.projectEnvironments', params: { ...PROJECT, ...PAGE_PARAMS },
    paginated: true, shape: EnvironmentWire, summary: 'List the environments of a project', tag,
  },
  {
    method: 'POST', path: '/projects/:id/environments', field: 'Mutation.createEnvironment',
    params: { ...PROJECT, name: { type: 'string', required: true, arg: 'input.name' }, external_url: { type: 'string', arg: 'input.externalUrl' }, slug: SLUG },
    shape: EnvironmentWire, summary: 'Create an environment', tag,
  },
  {
    method: 'PUT', path: '/projects/:id/environments/:environment_id', field: 'Mutation.updateEnvironment',
    params: { ...PROJECT, ...ENVIRONMENT, name: { type: 'string', arg: 'input.name' }, external_url: { type: 'string', arg: 'input.externalUrl' }, slug: SLUG },
    shape: EnvironmentWire, summary: 'Update an environment (the slug never changes)', tag,
  },
  {
    method: 'DELETE', path: '/projects/:id/environments/:environment_id', field: 'Mutation.deleteEnvironment', params: { ...PROJECT, ...ENVIRONMENT },
    summary: 'Delete an environment', tag,
  },
  {
    method: 'POST', path: '/projects/:id/environments/:environment_id/stop', field: 'Mutation.stopEnvironment', params: { ...PROJECT, ...ENVIRONMENT },
    status: 200, v3: true, shape: EnvironmentWire, summary: 'Stop an environment (also under /api/v3, spec 9)', tag,
  },
]);
