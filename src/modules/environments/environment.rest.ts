import { defineRoutes, type ParamException } from '../../rest/route';
import { EnvironmentWire, ReviewAppsDeletionWire, StaleEnvironmentsStopWire } from './environment.presenter';

/** Parameters derive from the GraphQL arguments (docs/adding-a-resource.md); these are the exceptions. */
// Required on REST: the writes' GraphQL arguments are optional, GitLab's GraphQL names the objects otherwise (environment.inputs.ts).
const PROJECT: Record<string, ParamException> = { id: { arg: 'projectId', required: true } };
const ENVIRONMENT: Record<string, ParamException> = { environment_id: { notFound: '', required: true } };
/** Grape's `absence` rule on both writes (spec 4.31, 4.32): the slug is generated, never sent. */
const SLUG: ParamException = { type: 'string', arg: '-', absence: 'is automatically generated and cannot be changed' };
const tag = 'environments';

export const environmentRoutes = defineRoutes([
  // Current GitLab's bulk routes (docs/client-routes.md#environments), before `/:environment_id`.
  {
    // gitbeaker sends `before` in the query string of this POST.
    method: 'POST',
    path: '/projects/:id/environments/stop_stale',
    field: 'Mutation.stopStaleEnvironments',
    params: { ...PROJECT, before: { required: true } },
    status: 200,
    shape: StaleEnvironmentsStopWire,
    summary: 'Stop the environments not updated since a date',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/environments/review_apps',
    field: 'Mutation.deleteReviewApps',
    params: PROJECT,
    status: 200,
    shape: ReviewAppsDeletionWire,
    summary: 'Delete stopped review apps (dry run by default)',
    tag,
  },
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
