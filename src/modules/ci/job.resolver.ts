import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Project } from '../projects/project.entity';
import { ProjectType } from '../projects/project.type';
import type { User } from '../users/user.entity';
import { UserType } from '../users/user.type';
import { CommitType, JobType, PipelineType, type JobRow } from './job.type';

/** A job's relations, each through a per-request loader (one query per relation and page). */
@Resolver(() => JobType)
export class JobResolver {
  @FieldResolver(() => UserType, { nullable: true })
  user(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<User | null> | null {
    return job.userId === null ? null : ctx.loaders.ciUser.load(job.userId);
  }

  @FieldResolver(() => CommitType, { nullable: true, description: 'null when the commit is unknown.' })
  commit(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<CommitType | null> {
    return ctx.loaders.ciPipelineCommit.load(job.pipelineId);
  }

  @FieldResolver(() => PipelineType)
  async pipeline(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<PipelineType> {
    const p = await ctx.loaders.ciPipeline.load(job.pipelineId);
    if (!p) throw new Error(`job ${job.id} has no pipeline`);
    return p;
  }

  @FieldResolver(() => ProjectType)
  async project(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<Project> {
    const p = await ctx.loaders.ciProject.load(job.projectId);
    if (!p) throw new Error(`job ${job.id} has no project`);
    return p;
  }
}
