import { Arg, Args, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { PageArgs, type Page } from '../../core/pagination/page';
import { projectService } from '../projects';
import { jobService } from './job.service';
import { JobIdArg, JobPage, JobStatus, JobType, type JobRow } from './job.type';

/** The project whose jobs the caller may read: 404 when invisible, 403 without read_build (GitLab 10.3's `authorize_read_builds!`). */
async function readableProject(ctx: RequestCtx, projectId: string): Promise<number> {
  const project = await projectService.findVisible(ctx, projectId);
  if (!(await jobService.mayReadJobs(ctx, project))) throw new ForbiddenError();
  return project.id;
}

const SCOPE = { nullable: true, description: 'Only jobs in these statuses (all when omitted).' };

/**
 * GitLab 10.3's jobs API (lib/api/jobs.rb), read routes; docs/rest.md#jobs. Internal view only: GraphQL
 * clients read `Project.jobs`, `Pipeline.jobs` and a job by its global id (`node(id)`).
 */
@Resolver(() => JobType)
export class ProjectJobsApiResolver {
  @Internal()
  @Query(() => JobPage, { description: "A project's jobs, newest first, in the scope statuses." })
  @Allow('anonymous')
  async projectJobList(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('scope', () => [JobStatus], SCOPE) scope: JobStatus[] | null,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<JobRow>> {
    return jobService.listForProject(ctx, await readableProject(ctx, projectId), scope, null, args);
  }

  @Internal()
  @Query(() => JobPage, { description: "A pipeline's jobs, newest first." })
  @Allow('anonymous')
  async pipelineJobList(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('pipelineId', () => Int) pipelineId: number,
    @Arg('scope', () => [JobStatus], SCOPE) scope: JobStatus[] | null,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<JobRow>> {
    return jobService.listForProject(ctx, await readableProject(ctx, projectId), scope, pipelineId, args);
  }

  @Internal()
  @Query(() => JobType, { description: 'One job of a project.' })
  @Allow('anonymous')
  async projectJob(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('jobId', () => JobIdArg) jobId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<JobRow> {
    return jobService.getInProject(ctx, await readableProject(ctx, projectId), jobId);
  }
}
