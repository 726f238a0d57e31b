import type { ParamSpec } from '../../core/params/coerce';
import { PAGE_PARAMS } from '../../core/pagination/page';
import { defineRoutes } from '../../rest/route';
import { JobWire } from '../ci/job.presenter';
import { JOB_STATUS_REST_VALUES } from '../ci/job.type';
import { RunnerDetailWire, RunnerRegistrationWire, RunnerWire } from './runner.presenter';
import { RUNNER_ACCESS_LEVEL_REST_VALUES } from './runner.type';

const tag = 'runners';
const ID: Record<string, ParamSpec> = { id: { type: 'int', notFound: '' } };
const PROJECT: Record<string, ParamSpec> = { id: { type: 'id', arg: 'projectId' } };
const ATTRS: Record<string, ParamSpec> = {
  description: { type: 'string', arg: 'input.description' },
  active: { type: 'bool', arg: 'input.active' },
  tag_list: { type: 'stringArray', arg: 'input.tagList' },
  run_untagged: { type: 'bool', arg: 'input.runUntagged' },
  locked: { type: 'bool', arg: 'input.locked' },
  access_level: { type: 'enum', values: RUNNER_ACCESS_LEVEL_REST_VALUES, arg: 'input.accessLevel' },
};
const scope = (values: string[]): ParamSpec => ({ type: 'enum', values });
const RUNNER_TOKEN: Record<string, ParamSpec> = { token: { type: 'string', required: true } };

/** Spec 4.1-4.9 and the runner-facing registration calls (GitLab mounts these before /runners/:id). */
export const runnerRoutes = defineRoutes([
  {
    method: 'POST', path: '/runners', field: 'Mutation.registerRunner',
    params: { token: { type: 'string', required: true, arg: 'input.token' }, ...ATTRS, info: { type: 'hash', arg: 'input.info' } },
    shape: RunnerRegistrationWire, summary: 'Register a runner (registration token or project runners_token)', tag,
  },
  { method: 'DELETE', path: '/runners', field: 'Mutation.unregisterRunner', params: RUNNER_TOKEN, summary: 'Unregister a runner (its own token)', tag },
  { method: 'POST', path: '/runners/verify', field: 'Mutation.verifyRunner', params: RUNNER_TOKEN, status: 200, summary: "Verify a runner's token", tag },
  {
    method: 'GET', path: '/runners', field: 'Query.runners', params: { scope: scope(['active', 'paused', 'online']), ...PAGE_PARAMS },
    paginated: true, shape: RunnerWire, summary: 'List owned specific runners', tag,
  },
  {
    method: 'GET', path: '/runners/all', field: 'Query.allRunners', params: { scope: scope(['specific', 'shared', 'active', 'paused', 'online']), ...PAGE_PARAMS },
    paginated: true, shape: RunnerWire, summary: 'List all runners (admin)', tag,
  },
  { method: 'GET', path: '/runners/:id', field: 'Query.runner', params: ID, shape: RunnerDetailWire, summary: "Get a runner's details", tag },
  {
    method: 'PUT', path: '/runners/:id', field: 'Mutation.updateRunner', params: { ...ID, ...ATTRS }, atLeastOne: Object.keys(ATTRS),
    shape: RunnerDetailWire, summary: "Update a runner's details", tag,
  },
  { method: 'DELETE', path: '/runners/:id', field: 'Mutation.deleteRunner', params: ID, summary: 'Remove a runner', tag },
  {
    method: 'GET', path: '/runners/:id/jobs', field: 'Query.runnerJobs',
    params: { ...ID, status: { type: 'enum', values: JOB_STATUS_REST_VALUES }, ...PAGE_PARAMS },
    paginated: true, shape: JobWire, summary: "List a runner's jobs", tag,
  },
  {
    // scope is checked by the service after the project's Master filter (GitLab order).
    method: 'GET', path: '/projects/:id/runners', field: 'Query.projectRunners', params: { ...PROJECT, scope: { type: 'string' }, ...PAGE_PARAMS },
    paginated: true, shape: RunnerWire, summary: "List a project's runners", tag,
  },
  {
    method: 'POST', path: '/projects/:id/runners', field: 'Mutation.enableProjectRunner', params: { ...PROJECT, runner_id: { type: 'int', notFound: '' } },
    shape: RunnerWire, summary: 'Enable a specific runner in a project', tag,
  },
  {
    method: 'DELETE', path: '/projects/:id/runners/:runner_id', field: 'Mutation.disableProjectRunner',
    params: { ...PROJECT, runner_id: { type: 'int', notFound: 'Runner' } }, summary: 'Disable a specific runner in a project', tag,
  },
]);
