import { defineModule } from '../../core/module/app-module';
import { ciLoaders, visiblePipelines } from './ci.loaders';
import { nodeDef } from '../../core/graphql/node';
import { jobService } from './job.service';
import { CiCommit, CiJob, CiPipeline } from './ci.entity';
import { JobResolver, PipelineResolver, ProjectPipelineResolver } from './job.resolver';
import { JobPageResolver, PipelinePageResolver } from './job-page.resolver';
import { ProjectJobsApiResolver } from './project-jobs-api.resolver';
import { projectJobRoutes } from './job.rest';
import { PipelineJobsResolver, ProjectJobsResolver, projectJobLoaders } from './project-jobs.resolver';
import { seedCiDemo } from './ci-demo.seed';
import { Migration20261122130100CiJobs } from './migrations/Migration20261122130100_ci_jobs';
import { Migration20261205100000CiJobStatusNotify } from './migrations/Migration20261205100000_ci_job_status_notify';
import { Migration20261206090000CiBuildsProjectOrder } from './migrations/Migration20261206090000_ci_builds_project_order';
import { Migration20261208100000CiJobStatusNotifyId } from './migrations/Migration20261208100000_ci_job_status_notify_id';
import { Migration20261213090000CiBuildsTagList } from './migrations/Migration20261213090000_ci_builds_tag_list';
import { Migration20261220090000CiJobsPage } from './migrations/Migration20261220090000_ci_jobs_page';

/** Pipelines, commits and jobs: what runners run (spec 2.2). Nothing in the API creates them; the seed does. */
export const ciModule = defineModule({
  name: 'ci',
  // A job or pipeline is visible with its project (GitLab's read_build without the builds-access level).
  nodes: [
    nodeDef({ type: 'CiJob', gidClass: 'Ci::Build', load: jobService.visibleByIds }),
    nodeDef({ type: 'Pipeline', gidClass: 'Ci::Pipeline', load: visiblePipelines }),
  ],
  entities: [CiCommit, CiPipeline, CiJob],
  migrations: [
    { name: 'Migration20261122130100_ci_jobs', class: Migration20261122130100CiJobs },
    { name: 'Migration20261205100000_ci_job_status_notify', class: Migration20261205100000CiJobStatusNotify },
    { name: 'Migration20261206090000_ci_builds_project_order', class: Migration20261206090000CiBuildsProjectOrder },
    { name: 'Migration20261208100000_ci_job_status_notify_id', class: Migration20261208100000CiJobStatusNotifyId },
    { name: 'Migration20261213090000_ci_builds_tag_list', class: Migration20261213090000CiBuildsTagList },
    { name: 'Migration20261220090000_ci_jobs_page', class: Migration20261220090000CiJobsPage },
  ],
  resolvers: [
    JobResolver,
    PipelineResolver,
    JobPageResolver,
    PipelinePageResolver,
    ProjectPipelineResolver,
    ProjectJobsResolver,
    PipelineJobsResolver,
    ProjectJobsApiResolver,
  ],
  routes: projectJobRoutes,
  loaders: [ciLoaders, projectJobLoaders],
  seed: [seedCiDemo],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { JobListArgs } from './job.inputs';
export { seedCiScaleUnit } from './ci-scale.seed';
export { JobWire } from './job.presenter';
export { jobService } from './job.service';
export { JobPage, JobStatus, JobType, type JobRow } from './job.type';
// GitLab's status rules of a job, as pure functions (runners' `CiJob.stuck` reads `mayBeStuck`).
export {
  actionOf,
  badgeOf,
  isAction,
  isActive,
  isCancelable,
  isPlayable,
  isRetryable,
  jobStateOf,
  mayBeStuck,
  type JobState,
} from './job-status-rules';
