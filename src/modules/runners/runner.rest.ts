import { defineRoutes } from '../../rest/route';
import { JobWire } from '../ci';
import { RunnerCreationWire, RunnerDetailWire, RunnerRegistrationWire, RunnerWire } from './runner.presenter';

const tag = 'runners';
const BY_ID = { id: { notFound: '' } };
const PROJECT = { id: { arg: 'projectId' } };
/** GitLab's runnerAssignToProject/runnerUnassignFromProject name the project `projectPath`; REST's `:id` is it. */
const PROJECT_PATH = { id: { arg: 'projectPath' } };

/**
 * Spec 4.1-4.9 and the runner-facing registration calls. Parameters derive from the root fields'
 * arguments (docs/adding-a-resource.md); the entries list GitLab's exceptions only.
 */
export const runnerRoutes = defineRoutes([
  {
    // Current GitLab's lib/api/user_runners.rb: Grape's `given runner_type` rules (compared with the coerced enum value).
    method: 'POST',
    path: '/user/runners',
    field: 'Mutation.createRunner',
    rules: [
      { given: 'runner_type', is: 'GROUP_TYPE', requires: ['group_id'] },
      { given: 'runner_type', is: 'PROJECT_TYPE', requires: ['project_id'] },
    ],
    shape: RunnerCreationWire,
    summary: 'Create a runner (admins: instance; project Maintainers: project)',
    tag,
  },
  {
    // gitlab-runner sends info[features][…] too; only name, version, revision, platform, architecture are kept.
    method: 'POST',
    path: '/runners',
    field: 'Mutation.registerRunner',
    params: { token: {}, info: { scalarEntriesOnly: true } },
    shape: RunnerRegistrationWire,
    summary: 'Register a runner (registration token or project runners_token)',
    tag,
  },
  {
    method: 'DELETE',
    path: '/runners',
    field: 'Mutation.unregisterRunner',
    summary: 'Unregister a runner (its own token)',
    tag,
  },
  {
    method: 'POST',
    path: '/runners/verify',
    field: 'Mutation.verifyRunner',
    status: 200,
    summary: "Verify a runner's token",
    tag,
  },
  {
    method: 'GET',
    path: '/runners',
    field: 'Query.ownedRunners',
    params: { scope: { values: ['active', 'paused', 'online'] } },
    paginated: true,
    shape: RunnerWire,
    summary: 'List owned specific runners',
    tag,
  },
  {
    method: 'GET',
    path: '/runners/all',
    field: 'Query.runners',
    paginated: true,
    shape: RunnerWire,
    summary: 'List all runners (admin)',
    tag,
  },
  {
    method: 'GET',
    path: '/runners/:id',
    field: 'Query.runner',
    params: BY_ID,
    shape: RunnerDetailWire,
    summary: "Get a runner's details",
    tag,
  },
  {
    method: 'PUT',
    path: '/runners/:id',
    field: 'Mutation.updateRunner',
    params: BY_ID,
    rules: [{ atLeastOneOf: 'input' }],
    shape: RunnerDetailWire,
    summary: "Update a runner's details",
    tag,
  },
  {
    method: 'DELETE',
    path: '/runners/:id',
    field: 'Mutation.deleteRunner',
    params: BY_ID,
    summary: 'Remove a runner',
    tag,
  },
  {
    method: 'GET',
    path: '/runners/:id/jobs',
    field: 'Query.runnerJobs',
    params: BY_ID,
    paginated: true,
    shape: JobWire,
    summary: "List a runner's jobs",
    tag,
  },
  {
    // scope is a plain string here: the service checks it after the project's Master filter (GitLab order).
    method: 'GET',
    path: '/projects/:id/runners',
    field: 'Query.projectRunners',
    params: PROJECT,
    paginated: true,
    shape: RunnerWire,
    summary: "List a project's runners",
    tag,
  },
  {
    // Later GitLab (docs/client-routes.md): the runners available to a group.
    method: 'GET',
    path: '/groups/:id/runners',
    field: 'Query.groupRunners',
    params: { id: { arg: 'groupId' } },
    paginated: true,
    shape: RunnerWire,
    summary: "List a group's runners",
    tag,
  },
  {
    method: 'POST',
    path: '/projects/:id/runners',
    field: 'Mutation.enableProjectRunner',
    params: { ...PROJECT_PATH, runner_id: { notFound: '' } },
    shape: RunnerWire,
    summary: 'Enable a specific runner in a project',
    tag,
  },
  {
    method: 'DELETE',
    path: '/projects/:id/runners/:runner_id',
    field: 'Mutation.disableProjectRunner',
    params: { ...PROJECT_PATH, runner_id: { notFound: 'Runner' } },
    summary: 'Disable a specific runner in a project',
    tag,
  },
]);
