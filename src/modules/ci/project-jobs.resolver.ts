import DataLoader from 'dataloader';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import type { Page } from '../../core/pagination/page';
import type { Project } from '../projects/project.entity';
import { ProjectType } from '../projects/project.type';
import { JobListArgs } from './job.inputs';
import { jobService } from './job.service';
import { JobPage, type JobRow } from './job.type';

interface ProjectJobsKey {
  projectId: number;
  args: JobListArgs;
}
/** Every argument keys the batch (filters and page, connection arguments included). */
const argsKey = (a: JobListArgs) => JSON.stringify([a.status, a.sort, a.page, a.perPage, a.first, a.after, a.last, a.before]);

/** `Project.jobs` across the projects of a list: one bounded count and one page query per argument set. */
async function loadProjectJobs(ctx: RequestCtx, keys: readonly ProjectJobsKey[]): Promise<Page<JobRow>[]> {
  const batches = new Map<string, ProjectJobsKey[]>();
  for (const k of keys) batches.set(argsKey(k.args), [...(batches.get(argsKey(k.args)) ?? []), k]);
  const out = new Map<string, Page<JobRow>>();
  for (const [ak, batch] of batches) {
    const pages = await jobService.listForProjects(ctx, [...new Set(batch.map((k) => k.projectId))], batch[0].args);
    for (const [projectId, page] of pages) out.set(`${projectId}|${ak}`, page);
  }
  return keys.map((k) => out.get(`${k.projectId}|${argsKey(k.args)}`)!);
}

export function projectJobLoaders(ctx: RequestCtx) {
  return {
    projectJobs: new DataLoader<ProjectJobsKey, Page<JobRow>, string>((keys) => loadProjectJobs(ctx, keys), {
      cacheKeyFn: (k) => `${k.projectId}|${argsKey(k.args)}`,
    }),
  };
}

type ProjectJobLoaders = ReturnType<typeof projectJobLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends ProjectJobLoaders {}
}

/**
 * A project's jobs as its field (GitLab's `Project.jobs`), where a dashboard goes from a project to its
 * CI. Visible with the project, the same rule as `node(id)` of a job and `ciJobStatusUpdated` here.
 */
@Resolver(() => ProjectType)
export class ProjectJobsResolver {
  @FieldResolver(() => JobPage, { description: "The project's jobs by id (sort DESC: newest first), optionally in one status." })
  @Reads('id')
  jobs(@Root() p: Project, @Args() args: JobListArgs, @Ctx() ctx: RequestCtx): Promise<Page<JobRow>> {
    return ctx.loaders.projectJobs.load({ projectId: p.id, args });
  }
}
