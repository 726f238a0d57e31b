import { defineRoutes, type ParamException } from '../../rest/route';
import { EnvironmentWire } from './environment.presenter';

/** Parameters derive from the GraphQL arguments (docs/adding-a-resource.md); these are the exceptions. */
const PROJECT: Record<string, ParamException> = { id: { arg: 'projectId' } };
const ENVIRONMENT: Record<string, ParamException> = { environment_id: { notFound: '' } };
/** Grape's `absence` rule on both writes (spec 4.31, 4.32): the slug is generated, never sent. */
const SLUG: ParamException = { type: 'string', arg: '-', absence: 'is automatically generated and cannot be changed' };
const tag = 'environments';

export const environmentRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/projects/:id/environments',
    field: 'Query.projectEnvironments',
    params: PROJECT,
    paginated: true,
    shape: EnvironmentWire,
    summary: 'List the environments of a project',
    tag,
  },
  {
    // Later GitLab (read_environment: Reporter); the spec's environment keys (docs/client-routes.md).
    method: 'GET',
    path: '/projects/:id/environments/:environment_id',
    field: 'Query.environment',
    params: { ...PROJECT, ...ENVIRONMENT },
    shape: EnvironmentWire,
    summary: 'Get an environment',
    tag,
  },
  {
    // Grape's order: name, external_url, slug (the order of the joined messages).
    method: 'POST',
    path: '/projects/:id/environments',
    field: 'Mutation.createEnvironment',
    params: { ...PROJECT, name: {}, external_url: {}, slug: SLUG },
    shape: EnvironmentWire,
    summary: 'Create an environment',
    tag,
  },
  {
    method: 'PUT',
    path: '/projects/:id/environments/:environment_id',
    field: 'Mutation.updateEnvironment',
    params: { ...PROJECT, ...ENVIRONMENT, name: {}, external_url: {}, slug: SLUG },
    shape: EnvironmentWire,
    summary: 'Update an environment (the slug never changes)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/environments/:environment_id',
    field: 'Mutation.deleteEnvironment',
    params: { ...PROJECT, ...ENVIRONMENT },
    summary: 'Delete an environment',
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/environments/:environment_id/stop',
    field: 'Mutation.stopEnvironment',
    params: { ...PROJECT, ...ENVIRONMENT },
    status: 200,
    v3: true,
    shape: EnvironmentWire,
    summary: 'Stop an environment (also under /api/v3, spec 9)',
    tag,
  },
]);
