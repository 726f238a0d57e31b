import { defineRoutes, type ParamException } from '../../rest/route';
import { ProjectJobWire } from './job.presenter';

const PROJECT: Record<string, ParamException> = { id: { arg: 'projectId' } };
const tag = 'jobs';

/** GitLab 10.3's jobs API, read routes (lib/api/jobs.rb; docs/rest.md#jobs): `scope` is one status or several. */
export const projectJobRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/projects/:id/jobs',
    field: 'Query.projectJobList',
    params: PROJECT,
    paginated: true,
    shape: ProjectJobWire,
    summary: "List a project's jobs",
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/jobs/:job_id',
    field: 'Query.projectJob',
    params: { ...PROJECT, job_id: { notFound: '' } },
    shape: ProjectJobWire,
    summary: 'Get a job of a project',
    tag,
  },
  {
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/jobs',
    field: 'Query.pipelineJobList',
    params: { ...PROJECT, pipeline_id: { notFound: '' } },
    paginated: true,
    shape: ProjectJobWire,
    summary: "List a pipeline's jobs",
    tag,
  },
]);
