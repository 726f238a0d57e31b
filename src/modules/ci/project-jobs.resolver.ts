import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import { ProjectJobListArgs } from './job.inputs';
import { SortDirection } from '../access';
import { jobService } from './job.service';
import { JobPage, type JobRow } from './job.type';
import { ciPolicy } from './ci.policy';

export function projectJobLoaders(ctx: RequestCtx) {
  return {
    /** `Project.jobs` across the projects of a list: one bounded count and one page query per argument set. */
    projectJobs: perParentPages<ProjectJobListArgs, JobRow>((args, ids) =>
      jobService.listForParents(ctx, 'project', ids, args),
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
    const level = p.publicJobs || !ctx.user ? 0 : await ctx.loaders.projectLevel.load(p.id);
    if (!ciPolicy.canReadJobs(ctx.user, p, () => level)) return null;
    return ctx.loaders.projectJobs.load({ parentId: p.id, args: { ...args, sort: args.sort ?? SortDirection.DESC } });
  }
}
