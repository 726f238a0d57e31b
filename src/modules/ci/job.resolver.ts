import { Arg, Ctx, FieldResolver, Resolver, Root, Subscription } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { User } from '../users';
import { UserType } from '../users';
import { CommitType, DetailedStatusType, JobIdArg, JobType, PipelineType, type JobRow } from './job.type';
import { jobStatusChanges } from './job-status-changes';
import type { Loaded } from '../../core/context/peek-loader';
import { Reads } from '../../core/graphql/reads';
import { jobPath, missing, projectPath } from './job-paths';
import { actionOf, badgeOf, coreBadge } from './job-status-rules';
import { canUpdateJob } from './job-permissions';

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

  @FieldResolver(() => DetailedStatusType, { description: "The job's status as GitLab's CI badge shows it." })
  async detailedStatus(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<DetailedStatusType> {
    const state = { ...job, status: job.status.toLowerCase() };
    const canUpdate = await canUpdateJob(ctx, job);
    const badge = badgeOf(state, canUpdate);
    const path = await jobPath(ctx, job);
    const id = `${badge.group}-${job.id}`;
    const action = actionOf(state, canUpdate);
    return {
      id,
      group: badge.group,
      icon: badge.icon,
      text: badge.text,
      label: badge.label,
      tooltip: badge.label,
      name: job.status,
      hasDetails: true,
      detailsPath: path,
      action: action && {
        id: `Ci::Build-${id}`,
        buttonTitle: action.buttonTitle,
        icon: action.icon,
        method: action.method,
        path: `${path}${action.pathSuffix}`,
        title: action.title,
      },
    };
  }

  @FieldResolver(() => String, { description: "The first eight characters of the commit's SHA." })
  shortSha(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Loaded<string> {
    return ctx.loaders.ciPipeline.map(job.pipelineId, (p) => (p ?? missing(job, 'pipeline')).sha.slice(0, 8));
  }

  @FieldResolver(() => String, { description: "Path of the job's commit page." })
  async commitPath(@Root() job: JobRow, @Ctx() ctx: RequestCtx): Promise<string> {
    const pipeline = (await ctx.loaders.ciPipeline.get(job.pipelineId)) ?? missing(job, 'pipeline');
    return `${await projectPath(ctx, job)}/-/commit/${pipeline.sha}`;
  }
}

/** A pipeline's project: the project of the job or pipeline it was reached from, hence visible. */
@Resolver(() => PipelineType)
export class PipelineResolver {
  @FieldResolver(() => DetailedStatusType, { description: "The pipeline's status as GitLab's CI badge shows it." })
  async detailedStatus(@Root() p: PipelineType, @Ctx() ctx: RequestCtx): Promise<DetailedStatusType> {
    const group = p.status.toLowerCase();
    const badge = coreBadge(group);
    const project = (await ctx.loaders.ciProject.get(p.projectId)) ?? null;
    const ns = project ? await ctx.loaders.namespace.get(project.namespaceId) : null;
    const root = new URL(ctx.externalUrl).pathname.replace(/\/$/, '');
    return {
      id: `${group}-${p.id}`,
      group,
      icon: `status_${group}`,
      text: badge.text,
      label: badge.label,
      tooltip: badge.label,
      name: p.status.toUpperCase(),
      hasDetails: true,
      detailsPath: project && ns ? `${root}/${ns.fullPath}/${project.path}/-/pipelines/${p.id}` : null,
      action: null,
    };
  }

  @FieldResolver(() => ProjectType)
  project(@Root() p: PipelineType, @Ctx() ctx: RequestCtx): Loaded<Project> {
    return ctx.loaders.ciProject.map(p.projectId, (found) => {
      if (!found) throw new Error(`pipeline ${p.id} has no project`);
      return found;
    });
  }
}

/**
 * GitLab's `Project.pipeline` without arguments: the latest pipeline of the default branch's head commit.
 * No repository is kept here, so no project has a head commit and GitLab's answer is null.
 */
@Resolver(() => ProjectType)
export class ProjectPipelineResolver {
  @FieldResolver(() => PipelineType, {
    nullable: true,
    description:
      "The latest pipeline of the default branch's head commit: null, as no repository (hence no head commit) is kept here.",
  })
  @Reads('id')
  pipeline(@Root() _p: Project): PipelineType | null {
    return null;
  }
}
