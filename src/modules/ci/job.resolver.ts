import { Arg, Ctx, FieldResolver, Resolver, Root, Subscription } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { User } from '../users';
import { UserType } from '../users';
import { CommitType, JobIdArg, JobType, PipelineType, type JobRow } from './job.type';
import { jobStatusChanges } from './job-status-changes';
import type { Loaded } from '../../core/context/peek-loader';

function missing(job: JobRow, what: string): never {
  throw new Error(`job ${job.id} has no ${what}`);
}

/**
 * A job's relations, each through a per-request loader (one query per relation and page; at once when the list preloaded them),
 * and Subscription.ciJobStatusUpdated (job-status-changes.ts).
 */
@Resolver(() => JobType)
export class JobResolver {
  // GitLab's Subscription.ciJobStatusUpdated(jobId: CiBuildID!): CiJob (nullable, as GitLab's subscription fields).
  @Subscription(() => JobType, {
    nullable: true,
    description:
      'Live: the job after each change of its status, on any instance (WebSocket, graphql-transport-ws). ' +
      'Only a job the caller may read (with its project); for another job nothing is sent.',
    subscribe: ({ args, context }) => jobStatusChanges(context as RequestCtx, (args as { jobId: number }).jobId),
  })
  @Allow('user')
  ciJobStatusUpdated(
    @Root() job: JobRow,
    @Arg('jobId', () => JobIdArg, { description: 'Global ID of the job.' }) _jobId: number,
  ): JobRow {
    return job;
  }

  @FieldResolver(() => UserType, { nullable: true })
  user(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    return job.userId === null ? null : ctx.loaders.user.get(job.userId);
  }

  @FieldResolver(() => CommitType, { nullable: true, description: 'null when the commit is unknown.' })
  commit(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<CommitType | null> {
    return ctx.loaders.ciPipelineCommit.get(job.pipelineId);
  }

  @FieldResolver(() => PipelineType)
  pipeline(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<PipelineType> {
    return ctx.loaders.ciPipeline.map(job.pipelineId, (p) => p ?? missing(job, 'pipeline'));
  }

  @FieldResolver(() => ProjectType)
  project(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<Project> {
    return ctx.loaders.ciProject.map(job.projectId, (p) => p ?? missing(job, 'project'));
  }
}
