import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntitiesById, sqlRows } from '../../core/db/sql';
import { PeekLoader } from '../../core/context/peek-loader';
import { Runner } from './runner.entity';
import { jobStuckLoader } from './job-stuck';
import { mayReadRunner } from './runner.policy';
import { perParent, perParentPages } from '../../core/pagination/per-parent-pages';
import { policy, intArray } from '../access';
import type { JobListArgs } from '../ci';
import { jobService } from '../ci';
import type { JobRow, JobStatus } from '../ci';
import { joinProject, projectFromRow, projectMatches, type Project, memberProjects } from '../projects';

/**
 * At most this many projects in a runner's `projects` (GraphQL `Runner.projects`, REST GET
 * /runners/:id): GitLab 10.3 listed every project the runner is enabled for; an unpaged list is
 * served up to a declared bound (core/graphql/list-bound.ts), the first by id.
 */
export const RUNNER_PROJECTS_MAX = 100;

/**
 * A runner's projects as the detail form shows them: all for admins, otherwise only the linked
 * projects the caller is a member of (GitLab: `authorized_projects.where(id: runner.projects)`).
 */
async function loadRunnerProjects(ctx: RequestCtx, runnerIds: readonly number[]): Promise<Project[][]> {
  const filter = policy.isAdmin(ctx.user)
    ? ''
    : ` and ${projectMatches('rp.project_id', 'ap', await memberProjects(ctx, 'ap'))}`;
  const rows = await sqlRows<Record<string, unknown>>(
    ctx.em,
    `select k.id as runner_key, p.* from unnest(${intArray(runnerIds)}) k(id) cross join lateral (
       select rp.project_id from ci_runner_projects rp where rp.runner_id = k.id${filter} order by rp.project_id limit ${RUNNER_PROJECTS_MAX}) l
       ${joinProject('l.project_id')} order by k.id, p.id`,
  );
  const byRunner = new Map<number, Project[]>();
  for (const row of rows) {
    const key = Number(row.runner_key);
    const list = byRunner.get(key) ?? [];
    list.push(projectFromRow(ctx.em, row));
    byRunner.set(key, list);
  }
  return runnerIds.map((id) => byRunner.get(id) ?? []);
}

/**
 * Runners by id as `runner(id)` lets the caller read them (runner.policy.ts `mayReadRunner`): admins
 * any, signed-in users shared ones and the ones they own; else null. One query per batch.
 */
async function loadVisibleRunners(ctx: RequestCtx, ids: readonly number[]): Promise<(Runner | null)[]> {
  if (!ctx.user) return ids.map(() => null);
  const runners = await lightEntitiesById(ctx.em, Runner, ids);
  const readable = await Promise.all(runners.map((r) => mayReadRunner(ctx, r)));
  const byId = new Map(runners.filter((_, i) => readable[i]).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * Each runner's first project (GitLab's `owner_project`: the project it was enabled in first) and its
 * number of projects, from ci_runner_projects (ci_runner_projects_runner_project_uniq serves both).
 */
async function loadRunnerProjectLinks(
  ctx: RequestCtx,
  runnerIds: readonly number[],
): Promise<{ first: number | null; count: number }[]> {
  const rows = await sqlRows<{ runner_id: number; first: number; n: number }>(
    ctx.em,
    `select rp.runner_id, (array_agg(rp.project_id order by rp.id))[1] as first, count(*)::int as n
       from ci_runner_projects rp where rp.runner_id = any(${intArray(runnerIds)}) group by rp.runner_id`,
  );
  const byRunner = new Map(rows.map((r) => [Number(r.runner_id), { first: Number(r.first), count: Number(r.n) }]));
  return runnerIds.map((id) => byRunner.get(id) ?? { first: null, count: 0 });
}

export function runnerLoaders(ctx: RequestCtx) {
  return {
    visibleRunner: new PeekLoader<number, Runner | null>((ids) => loadVisibleRunners(ctx, ids)),
    /** CiJob.stuck across the pending jobs of a page: one statement. */
    jobStuck: jobStuckLoader(ctx),
    runnerProjects: new DataLoader<number, Project[]>((ids) => loadRunnerProjects(ctx, ids)),
    /** CiRunner.ownerProject and projectCount across the runners of a list: one statement. */
    runnerProjectLinks: new DataLoader<number, { first: number | null; count: number }>((ids) =>
      loadRunnerProjectLinks(ctx, ids),
    ),
    /**
     * Runner.jobCount(statuses) across the runners of a list: one statement per distinct set of
     * statuses, bounded as the list totals (ci_builds_runner_idx, ci_builds_runner_status_idx).
     */
    runnerJobCount: perParent<{ statuses: JobStatus[] | null }, number | null>((args, ids) =>
      jobService.countForParents(ctx, 'runner', ids, args.statuses),
    ),
    /** Runner.jobs across the runners of a list: one count and one page query per argument set. */
    runnerJobs: perParentPages<JobListArgs, JobRow>((args, ids) => jobService.listForParents(ctx, 'runner', ids, args)),
  };
}

type RunnerLoaders = ReturnType<typeof runnerLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends RunnerLoaders {}
}
