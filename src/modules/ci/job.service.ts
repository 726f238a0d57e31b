import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPage, boundedCountsByKey, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import { NotFoundError } from '../../core/errors/domain-errors';
import type { JobListArgs, ProjectJobListArgs } from './job.inputs';
import { JobSource, PIPELINE_SOURCE_CODES } from './job-page.type';
import { SortDirection } from '../access';
import { joinProject, projectVisibility } from '../projects';
import { pgTime } from '../../core/db/pg-time';
import { pgArray, sqlRows } from '../../core/db/sql';
import { preloadJobRelations } from './ci.loaders';
import type { JobRow, JobStatus } from './job.type';
import { ciPolicy } from './ci.policy';

interface JobSqlRow {
  id: number;
  status: string;
  stage: string;
  name: string;
  ref: string;
  tag: boolean;
  allow_failure: boolean;
  when: string | null;
  retried: boolean | null;
  coverage: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  project_id: number;
  pipeline_id: number;
  user_id: number | null;
  runner_id: number | null;
  tag_list: string[] | null;
}

/** GitLab's CommitStatus#duration: finished (or now, while running) minus started, in seconds. */
function durationOf(startedAt: Date | null, finishedAt: Date | null, now: Date): number | null {
  if (!startedAt) return null;
  return ((finishedAt ?? now).getTime() - startedAt.getTime()) / 1000;
}

/**
 * GitLab's queued_duration (started minus queued, or now minus queued while waiting). Jobs here carry no
 * queued time of their own: their creation stands for it. A job that ended without starting has none.
 */
function queuedDurationOf(status: string, createdAt: Date, startedAt: Date | null, now: Date): number | null {
  if (startedAt) return Math.max(0, (startedAt.getTime() - createdAt.getTime()) / 1000);
  return status === 'pending' || status === 'created'
    ? Math.max(0, (now.getTime() - createdAt.getTime()) / 1000)
    : null;
}

function toJobRow(r: JobSqlRow, now: Date): JobRow {
  const startedAt = pgTime(r.started_at);
  const finishedAt = pgTime(r.finished_at);
  return {
    id: r.id,
    status: r.status.toUpperCase() as JobStatus,
    stageName: r.stage,
    name: r.name,
    ref: r.ref,
    tag: r.tag,
    allowFailure: r.allow_failure,
    when: r.when,
    retried: r.retried,
    coverage: r.coverage === null ? null : Number(r.coverage),
    createdAt: pgTime(r.created_at),
    startedAt,
    finishedAt,
    duration: durationOf(startedAt, finishedAt, now),
    queuedDuration: queuedDurationOf(r.status, pgTime(r.created_at), startedAt, now),
    projectId: r.project_id,
    pipelineId: r.pipeline_id,
    userId: r.user_id,
    runnerId: r.runner_id,
    tags: r.tag_list ?? [],
  };
}

/** The column a job list is batched by: Runner.jobs (spec 4.6) or Project.jobs. */
const PARENT_COLUMN = { runner: 'b.runner_id', project: 'b.project_id', pipeline: 'b.pipeline_id' } as const;

/**
 * Jobs of several runners or projects at once (Runner.jobs of a runner list, spec 4.6; Project.jobs of
 * a project list), each list ordered by id and paginated in SQL: a bounded count and a lateral page per
 * parent in one round trip, for any number of parents and any page size (ci_builds_runner_idx,
 * ci_builds_runner_status_idx, and the (project_id, id) / (project_id, status, id) indexes give index
 * range scans). Callers check that the parents' jobs may be read.
 */
async function listForParents(
  ctx: RequestCtx,
  parent: keyof typeof PARENT_COLUMN,
  ids: readonly number[],
  args: JobFilters & PageArgs,
): Promise<Map<number, Page<JobRow>>> {
  const term = parent === 'project' && args.name?.trim() ? args.name.toLowerCase() : null;
  const names = term === null ? undefined : await namesMatching(ctx, ids, term);
  return offsetPagesByKey(ctx.em, jobQuery(args, ctx.clock.now(), names), PARENT_COLUMN[parent], ids, args);
}

/**
 * How many jobs each runner or project has (Runner.jobCount), at most COUNT_LIMIT (null above), in one
 * statement; `statuses`: only jobs in one of these (GitLab's `jobCount(statuses:)`; an empty list matches none).
 */
async function countForParents(
  ctx: RequestCtx,
  parent: keyof typeof PARENT_COLUMN,
  ids: readonly number[],
  statuses?: readonly JobStatus[] | null,
): Promise<Map<number, number | null>> {
  const query = jobQuery({}, ctx.clock.now());
  if (statuses) {
    query.where.push('b.status = any(?::text[])');
    query.params.push(pgArray([...new Set(statuses)].map((s) => s.toLowerCase())));
  }
  return boundedCountsByKey(ctx.em, query, PARENT_COLUMN[parent], ids);
}

const JOB_COLUMNS =
  'b.id, b.status, b.stage, b.name, b.ref, b.tag, b.allow_failure, b."when", b.retried, b.coverage, b.created_at, b.started_at, b.finished_at, b.project_id, b.pipeline_id, b.user_id, b.runner_id, b.tag_list';

/** The filters a job list takes: the runner list's, and `Project.jobs`'s (GitLab's statuses, sources, name). */
type JobFilters = Pick<JobListArgs, 'status' | 'sort'> &
  Partial<Pick<ProjectJobListArgs, 'statuses' | 'sources' | 'name'>>;

/**
 * The job names of these projects that contain `term` (in lower case): GitLab's `LOWER(name) LIKE '%…%'`
 * over each project's distinct job names, read by a skip scan of ci_builds_project_name_idx (one index
 * probe per distinct name). The jobs are then read by these names as a literal list, which the planner
 * weighs with the column's statistics: a rare name through the (project_id, name, id) index, a common
 * one along the id order. (Inside the page statement, an array subquery hides the names from the
 * planner, which then walked a whole project for a rare name.)
 */
async function namesMatching(ctx: RequestCtx, projectIds: readonly number[], term: string): Promise<string[]> {
  const rows = await sqlRows<{ name: string }>(
    ctx.em,
    `select distinct n.name from unnest(?::int[]) as p(id) cross join lateral (
       with recursive job_names(name) as (
         (select x.name from ci_builds x where x.project_id = p.id order by x.name limit 1)
         union all
         (select (select x.name from ci_builds x where x.project_id = p.id and x.name > n.name order by x.name limit 1)
            from job_names n where n.name is not null))
       select job_names.name from job_names) n
     where strpos(lower(n.name), ?) > 0`,
    [pgArray(projectIds.map(String)), term],
  );
  return rows.map((r) => r.name);
}

/**
 * Jobs ordered by id, filtered by status (and, for a project's list, GitLab's statuses, sources and name:
 * `names`, the job names that match the name filter); the caller adds which runner(s) or project(s).
 */
function jobQuery(args: JobFilters, now: Date, names?: readonly string[]): ListQuery<JobRow> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.status) {
    where.push('b.status = ?');
    params.push(args.status.toLowerCase());
  }
  if (args.statuses) {
    where.push('b.status = any(?::text[])');
    params.push(pgArray([...new Set(args.statuses)].map((s) => s.toLowerCase())));
  }
  // GitLab applies the name filter, or else the sources filter, never both (ProjectJobsResolver).
  if (names) {
    where.push('b.name = any(?::text[])');
    params.push(pgArray([...names]));
  } else if (args.sources?.length) {
    where.push(sourcesFilter(args.sources, params));
  }
  const dir = args.sort === SortDirection.DESC ? 'desc' : 'asc';
  return {
    select: JOB_COLUMNS,
    from: 'ci_builds b',
    where,
    params,
    orderBy: 'b.id',
    dir,
    id: 'b.id',
    map: (r) => toJobRow(r as unknown as JobSqlRow, now),
  };
}

/**
 * A job's source is its pipeline's (`ci_pipelines.source`; UNKNOWN: null), read through
 * ci_pipelines_project_source_idx; the policy sources match no pipeline, hence no job.
 */
function sourcesFilter(sources: readonly JobSource[], params: unknown[]): string {
  const codes = sources.flatMap((s) => (PIPELINE_SOURCE_CODES[s] === undefined ? [] : [PIPELINE_SOURCE_CODES[s]]));
  const unknown = sources.includes(JobSource.UNKNOWN);
  params.push(pgArray(codes.map(String)));
  return `exists (select 1 from ci_pipelines pl where pl.id = b.pipeline_id and pl.project_id = b.project_id
    and (pl.source = any(?::int[])${unknown ? ' or pl.source is null' : ''}))`;
}

/** One runner's jobs (GET /runners/:id/jobs) through the shared list builder: plain rows, ordered by id. */
async function listForRunner(ctx: RequestCtx, runnerId: number, args: JobListArgs): Promise<Page<JobRow>> {
  const query = jobQuery(args, ctx.clock.now());
  query.where.unshift('b.runner_id = ?');
  query.params.unshift(runnerId);
  const page = await offsetPage(ctx.em, query, args);
  await preloadJobRelations(ctx, page.nodes);
  return page;
}

/**
 * node(id)/nodes(ids) of jobs: the ones among these ids whose project the caller may see and whose jobs
 * they may read (`ciPolicy.canReadJobs`, as `Project.jobs`); one statement, levels batched.
 */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<JobRow[]> {
  const now = ctx.clock.now();
  const rows = await sqlRows<JobSqlRow & { jobs_enabled: boolean; public_jobs: boolean }>(
    ctx.em,
    `select ${JOB_COLUMNS}, p.jobs_enabled, p.public_jobs
    from ci_builds b ${joinProject('b.project_id')}
    where b.id = any(?::int[]) and ${await projectVisibility(ctx, 'p')}`,
    [pgArray(ids.map(Number))],
  );
  const levels = await Promise.all(
    rows.map((r) => (r.public_jobs || !ctx.user ? 0 : ctx.loaders.projectLevel.load(Number(r.project_id)))),
  );
  return rows
    .filter((r, i) =>
      ciPolicy.canReadJobs(ctx.user, { jobsEnabled: r.jobs_enabled, publicJobs: r.public_jobs }, () => levels[i]),
    )
    .map((r) => toJobRow(r, now));
}

/**
 * GET /projects/:id/jobs and …/pipelines/:pipeline_id/jobs (GitLab 10.3's jobs API): newest first, in
 * the `scope` statuses (all when none). The caller has checked that the project's jobs may be read.
 */
async function listForProject(
  ctx: RequestCtx,
  projectId: number,
  scope: readonly JobStatus[] | null | undefined,
  pipelineId: number | null,
  args: PageArgs,
): Promise<Page<JobRow>> {
  const query = jobQuery({ sort: SortDirection.DESC }, ctx.clock.now());
  query.where.unshift('b.project_id = ?');
  query.params.unshift(projectId);
  if (pipelineId !== null) {
    const [pipeline] = await sqlRows(ctx.em, 'select 1 from ci_pipelines where id = ? and project_id = ?', [
      pipelineId,
      projectId,
    ]);
    if (!pipeline) throw new NotFoundError();
    query.where.push('b.pipeline_id = ?');
    query.params.push(pipelineId);
  }
  if (scope?.length) {
    query.where.push('b.status = any(?::text[])');
    query.params.push(pgArray([...new Set(scope)].map((s) => s.toLowerCase())));
  }
  const page = await offsetPage(ctx.em, query, args);
  await preloadJobRelations(ctx, page.nodes);
  return page;
}

/** GET /projects/:id/jobs/:job_id: `404 Not found` for a job of another project, as GitLab's `find`. */
async function getInProject(ctx: RequestCtx, projectId: number, jobId: number): Promise<JobRow> {
  const query = jobQuery({}, ctx.clock.now());
  const rows = await sqlRows<JobSqlRow>(
    ctx.em,
    `select ${query.select} from ${query.from} where b.id = ? and b.project_id = ?`,
    [jobId, projectId],
  );
  if (!rows[0]) throw new NotFoundError();
  const job = query.map(rows[0] as unknown as Record<string, unknown>);
  await preloadJobRelations(ctx, [job]);
  return job;
}

/**
 * GitLab's read_build for the caller on a project it can see (`ciPolicy.canReadJobs`): the caller's
 * level is loaded (batched) only when the project's jobs are not public.
 */
async function mayReadJobs(
  ctx: RequestCtx,
  project: { id: number; jobsEnabled: boolean; publicJobs: boolean },
): Promise<boolean> {
  const level = project.publicJobs || !ctx.user ? 0 : await ctx.loaders.projectLevel.load(project.id);
  return ciPolicy.canReadJobs(ctx.user, project, () => level);
}

export const jobService = {
  mayReadJobs,
  listForRunner,
  listForParents,
  listForProject,
  getInProject,
  countForParents,
  visibleByIds,
};
