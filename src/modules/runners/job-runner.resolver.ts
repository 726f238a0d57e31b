import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { JobType, jobStateOf, mayBeStuck, type JobRow } from '../ci';
import type { Runner } from './runner.entity';
import { RunnerType } from './runner.type';
import type { Loaded } from '../../core/context/peek-loader';

/**
 * A job's runner (an object link a dashboard follows) and whether a runner can pick it (`stuck`): here, as the
 * runners module owns the runner tables and depends on ci, not the reverse.
 */
@Resolver(() => JobType)
export class JobRunnerResolver {
  @FieldResolver(() => RunnerType, {
    nullable: true,
    description:
      'The runner that took the job, when the caller may read it (as runner(id)); null otherwise or before a runner took it.',
  })
  runner(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<Runner | null> {
    if (job.runnerId === null) return null;
    return ctx.loaders.visibleRunner.get(job.runnerId);
  }

  @FieldResolver(() => Boolean, {
    description: 'Indicates the job is stuck: pending, and no online runner of the project can pick it.',
  })
  async stuck(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<boolean> {
    if (!mayBeStuck(jobStateOf(job))) return false;
    const project = await ctx.loaders.ciProject.get(job.projectId);
    if (!project) return false;
    const { sharedRunnersEnabled } = project;
    return ctx.loaders.jobStuck.load({ id: job.id, projectId: job.projectId, sharedRunnersEnabled, tags: job.tags });
  }
}
