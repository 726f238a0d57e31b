import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { intArray } from '../access';
import { joinProject, projectsById, projectsWithNamespaces, type Project, projectVisibility } from '../projects';
import { pgTime } from '../../core/db/pg-time';
import type { CommitType, PipelineType } from './job.type';

function byId<T>(ids: readonly number[], items: T[], idOf: (t: T) => number): (T | null)[] {
  const map = new Map(items.map((i) => [idOf(i), i]));
  return ids.map((id) => map.get(id) ?? null);
}

interface CommitSqlRow {
  pipeline_id: number;
  commit_sha: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  parent_ids: string[];
}

const COMMIT_COLUMNS = `c.sha as commit_sha, c.title, c.message, c.author_name, c.author_email, c.authored_date, c.committer_name,
            c.committer_email, c.committed_date, c.parent_ids`;

function commitOf(r: CommitSqlRow): CommitType {
  return {
    id: r.commit_sha,
    shortId: r.commit_sha.slice(0, 8),
    title: r.title,
    message: r.message,
    authorName: r.author_name,
    authorEmail: r.author_email,
    authoredDate: pgTime(r.authored_date),
    committerName: r.committer_name,
    committerEmail: r.committer_email,
    committedDate: pgTime(r.committed_date),
    createdAt: pgTime(r.committed_date),
    parentIds: r.parent_ids,
  };
}

/** The commit each pipeline builds: one query per batch, keyed by pipeline id. */
async function loadPipelineCommits(ctx: RequestCtx, ids: readonly number[]): Promise<(CommitType | null)[]> {
  const rows = await sqlRows<CommitSqlRow>(
    ctx.em,
    `select p.id as pipeline_id, ${COMMIT_COLUMNS}
       from ci_pipelines p join ci_commits c on c.project_id = p.project_id and c.sha = p.sha where p.id = any(${intArray(ids)})`,
  );
  const commits = rows.map((r) => ({ pipelineId: r.pipeline_id, commit: commitOf(r) }));
  return byId(ids, commits, (c) => c.pipelineId).map((c) => c?.commit ?? null);
}

/** Pipelines and their commits in one query (a job page needs both): fills both loaders. */
async function preloadPipelinesWithCommits(ctx: RequestCtx, pipelineIds: readonly number[]): Promise<void> {
  const l = ctx.loaders;
  const ids = [...new Set(pipelineIds)].filter(
    (id) => l.ciPipeline.peek(id) === undefined || l.ciPipelineCommit.peek(id) === undefined,
  );
  if (ids.length === 0) return;
  const rows = await sqlRows<
    CommitSqlRow & {
      id: number;
      sha: string;
      ref: string;
      status: string;
      project_id: number;
      user_id: number | null;
      source: number | null;
    }
  >(
    ctx.em,
    `select p.id as pipeline_id, p.id, p.sha, p.ref, p.status, p.project_id, p.user_id, p.source, ${COMMIT_COLUMNS}
       from ci_pipelines p left join ci_commits c on c.project_id = p.project_id and c.sha = p.sha where p.id = any(${intArray(ids)})`,
  );
  const found = new Map(rows.map((r) => [r.pipeline_id, r]));
  for (const id of ids) {
    const r = found.get(id);
    l.ciPipeline.fill(id, r ? pipelineOf(r) : null);
    l.ciPipelineCommit.fill(id, r && r.commit_sha !== null ? commitOf(r) : null);
  }
}

interface PipelineSqlRow {
  id: number;
  sha: string;
  ref: string;
  status: string;
  project_id: number;
  user_id: number | null;
  source: number | null;
}
const PIPELINE_COLUMNS = 'c.id, c.sha, c.ref, c.status, c.project_id, c.user_id, c.source';
const pipelineOf = (r: PipelineSqlRow): PipelineType => ({
  id: r.id,
  sha: r.sha,
  ref: r.ref,
  status: r.status,
  projectId: r.project_id,
  userId: r.user_id,
  source: r.source,
});

async function loadPipelines(ctx: RequestCtx, ids: readonly number[]): Promise<(PipelineType | null)[]> {
  const rows = await sqlRows<PipelineSqlRow>(
    ctx.em,
    `select ${PIPELINE_COLUMNS} from ci_pipelines c where c.id = any(${intArray(ids)})`,
  );
  return byId(ids, rows.map(pipelineOf), (p) => p.id);
}

/** node(id)/nodes(ids) of pipelines: the ones among these ids in projects the caller may see (one statement). */
export async function visiblePipelines(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<PipelineType[]> {
  const rows = await sqlRows<PipelineSqlRow>(
    ctx.em,
    `select ${PIPELINE_COLUMNS} from ci_pipelines c ${joinProject('c.project_id')}
    where c.id = any(${intArray(ids.map(Number))}) and ${await projectVisibility(ctx, 'p')}`,
  );
  return rows.map(pipelineOf);
}

/** Batched lookups behind a job's user, commit, pipeline and project (no query per job). */
export function ciLoaders(ctx: RequestCtx) {
  return {
    ciProject: new PeekLoader<number, Project | null>(async (ids) =>
      byId(ids, await projectsById(ctx.em, ids), (p) => p.id),
    ),
    ciPipeline: new PeekLoader<number, PipelineType | null>((ids) => loadPipelines(ctx, ids)),
    ciPipelineCommit: new PeekLoader<number, CommitType | null>((ids) => loadPipelineCommits(ctx, ids)),
  };
}

/**
 * Loads the relations of a page of jobs in one batch each (user, pipeline, commit, project, then the
 * projects' namespaces; pipelines and commits in one joined query) before the page is returned, so that each job's relation fields resolve
 * without a promise.
 */
export async function preloadJobRelations(
  ctx: RequestCtx,
  jobs: readonly { userId: number | null; pipelineId: number; projectId: number }[],
): Promise<void> {
  if (jobs.length === 0) return;
  const l = ctx.loaders;
  const users = jobs.flatMap((j) => (j.userId === null ? [] : [j.userId]));
  const pipelines = jobs.map((j) => j.pipelineId);
  await Promise.all([
    l.user.preload(users),
    preloadPipelinesWithCommits(ctx, pipelines),
    preloadProjectsWithNamespaces(
      ctx,
      jobs.map((j) => j.projectId),
    ),
  ]);
}

/** Projects and their namespaces in one query (a job shows name_with_namespace): fills both loaders. */
async function preloadProjectsWithNamespaces(ctx: RequestCtx, projectIds: readonly number[]): Promise<void> {
  const l = ctx.loaders;
  const ids = [...new Set(projectIds)].filter((id) => l.ciProject.peek(id) === undefined);
  if (ids.length === 0) return;
  const found = await projectsWithNamespaces(ctx.em, ids);
  for (const id of ids) {
    const r = found.get(id);
    const project = r?.project ?? null;
    l.ciProject.fill(id, project);
    if (project && r?.namespace && l.namespace.peek(project.namespaceId) === undefined)
      l.namespace.fill(project.namespaceId, r.namespace);
  }
}

type CiLoaders = ReturnType<typeof ciLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends CiLoaders {}
}
