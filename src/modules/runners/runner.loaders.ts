import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access/policy';
import { authorizedProjectIds } from '../access/visibility';
import { intArray } from '../access/visibility-sql';
import type { JobListArgs } from '../ci/job.inputs';
import { jobService } from '../ci/job.service';
import type { JobRow } from '../ci/job.type';
import { Project } from '../projects/project.entity';

/**
 * A runner's projects as the detail form shows them: all for admins, otherwise only the linked
 * projects the caller is a member of (GitLab: `authorized_projects.where(id: runner.projects)`).
 */
async function loadRunnerProjects(ctx: RequestCtx, runnerIds: readonly number[]): Promise<Project[][]> {
  const filter = policy.isAdmin(ctx.user) ? '' : ` and rp.project_id = any(${intArray(await authorizedProjectIds(ctx))})`;
  const links = await sqlRows<{ runner_id: number; project_id: number }>(
    ctx.em,
    `select rp.runner_id, rp.project_id from ci_runner_projects rp where rp.runner_id = any(${intArray(runnerIds)})${filter} order by rp.project_id`,
  );
  const projectIds = [...new Set(links.map((l) => Number(l.project_id)))];
  const projects = projectIds.length ? await ctx.em.find(Project, { id: { $in: projectIds } }) : [];
  const byId = new Map(projects.map((p) => [p.id, p]));
  return runnerIds.map((id) => links.filter((l) => Number(l.runner_id) === id).map((l) => byId.get(Number(l.project_id))!).filter(Boolean));
}

export interface RunnerJobsKey {
  runnerId: number;
  args: JobListArgs;
}

const argsKey = (a: JobListArgs) => `${a.status ?? ''}:${a.page ?? ''}:${a.perPage ?? ''}`;

/** Runner.jobs across the runners of a list: one count and one page query per argument set. */
async function loadRunnerJobs(ctx: RequestCtx, keys: readonly RunnerJobsKey[]): Promise<Page<JobRow>[]> {
  const groups = new Map<string, RunnerJobsKey[]>();
  for (const k of keys) groups.set(argsKey(k.args), [...(groups.get(argsKey(k.args)) ?? []), k]);
  const results = new Map<string, Page<JobRow>>();
  for (const [ak, group] of groups) {
    const pages = await jobService.listForRunners(ctx, [...new Set(group.map((k) => k.runnerId))], group[0].args);
    for (const [runnerId, page] of pages) results.set(`${runnerId}|${ak}`, page);
  }
  return keys.map((k) => results.get(`${k.runnerId}|${argsKey(k.args)}`)!);
}

export function runnerLoaders(ctx: RequestCtx) {
  return {
    runnerProjects: new DataLoader<number, Project[]>((ids) => loadRunnerProjects(ctx, ids)),
    runnerJobs: new DataLoader<RunnerJobsKey, Page<JobRow>, string>((keys) => loadRunnerJobs(ctx, keys), {
      cacheKeyFn: (k) => `${k.runnerId}|${argsKey(k.args)}`,
    }),
  };
}

type RunnerLoaders = ReturnType<typeof runnerLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends RunnerLoaders {}
}
