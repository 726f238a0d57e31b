import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import { PipelineJobListArgs, ProjectJobListArgs } from './job.inputs';
import { SortDirection } from '../access';
import { jobService } from './job.service';
import { JobPage, PipelineType, type JobRow } from './job.type';

export function projectJobLoaders(ctx: RequestCtx) {
  return {
    /** `Project.jobs` across the projects of a list: one bounded count and one page query per argument set. */
    projectJobs: perParentPages<ProjectJobListArgs, JobRow>((args, ids) =>
      jobService.listForParents(ctx, 'project', ids, args),
    ),
    /** `Pipeline.jobs` across the pipelines of a request: one bounded count and one page query per argument set. */
    pipelineJobs: perParentPages<PipelineJobListArgs, JobRow>((args, ids) =>
      jobService.listForParents(ctx, 'pipeline', ids, { ...args, sort: SortDirection.DESC }),
    ),
  };
}

type ProjectJobLoaders = ReturnType<typeof projectJobLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectJobLoaders {}
}

/**
 * A project's jobs as its field (GitLab's `Project.jobs`), where a dashboard goes from a project to its
 * CI. GitLab's read_build (`ciPolicy.canReadJobs`), the same rule as `node(id)` of a job and
 * `ciJobStatusUpdated` here: null when the project's jobs are disabled, or not public and the caller
 * is below Reporter.
 */
@Resolver(() => ProjectType)
export class ProjectJobsResolver {
  @FieldResolver(() => JobPage, {
    nullable: true,
    description:
      "The project's jobs, newest first (sort ASC: oldest first), filtered by status, statuses, and name or else sources; null when jobs are disabled, or not public and the caller is below Reporter.",
  })
  @Reads('id', 'jobsEnabled', 'publicJobs')
  async jobs(
    @Root() p: Project,
    @Args() args: ProjectJobListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<JobRow> | null> {
    if (!(await jobService.mayReadJobs(ctx, p))) return null;
    return ctx.loaders.projectJobs.load({ parentId: p.id, args: { ...args, sort: args.sort ?? SortDirection.DESC } });
  }
}

/**
 * A pipeline's jobs (GitLab's `Pipeline.jobs`), newest first, under the rule of `Project.jobs`: null when
 * the caller may not read the jobs of the pipeline's project.
 */
@Resolver(() => PipelineType)
export class PipelineJobsResolver {
  @FieldResolver(() => JobPage, {
    nullable: true,
    description:
      "The pipeline's jobs, newest first; null when the caller may not read the project's jobs (as `Project.jobs`).",
  })
  async jobs(
    @Root() pipeline: PipelineType,
    @Args() args: PipelineJobListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<JobRow> | null> {
    const project = await ctx.loaders.ciProject.get(pipeline.projectId);
    if (!project || !(await jobService.mayReadJobs(ctx, project))) return null;
    return ctx.loaders.pipelineJobs.load({ parentId: pipeline.id, args });
  }
}
