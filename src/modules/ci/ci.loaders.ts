import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { lightEntitiesById, sqlRows } from '../../core/db/sql';
import { intArray } from '../access/visibility-sql';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';
import { pgTime } from './pg-time';
import type { CommitType, PipelineType } from './job.type';

function byId<T>(ids: readonly number[], items: T[], idOf: (t: T) => number): (T | null)[] {
  const map = new Map(items.map((i) => [idOf(i), i]));
  return ids.map((id) => map.get(id) ?? null);
}

interface CommitSqlRow {
  pipeline_id: number;
  sha: string;
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

/** The commit each pipeline builds: one query per batch, keyed by pipeline id. */
async function loadPipelineCommits(ctx: RequestCtx, ids: readonly number[]): Promise<(CommitType | null)[]> {
  const rows = await sqlRows<CommitSqlRow>(
    ctx.em,
    `select p.id as pipeline_id, c.sha, c.title, c.message, c.author_name, c.author_email, c.authored_date, c.committer_name,
            c.committer_email, c.committed_date, c.parent_ids
       from ci_pipelines p join ci_commits c on c.project_id = p.project_id and c.sha = p.sha where p.id = any(${intArray(ids)})`,
  );
  const commits = rows.map((r) => ({
    pipelineId: r.pipeline_id,
    commit: {
      id: r.sha, shortId: r.sha.slice(0, 8), title: r.title, message: r.message, authorName: r.author_name, authorEmail: r.author_email,
      authoredDate: pgTime(r.authored_date), committerName: r.committer_name, committerEmail: r.committer_email,
      committedDate: pgTime(r.committed_date), createdAt: pgTime(r.committed_date), parentIds: r.parent_ids,
    },
  }));
  return byId(ids, commits, (c) => c.pipelineId).map((c) => c?.commit ?? null);
}

async function loadPipelines(ctx: RequestCtx, ids: readonly number[]): Promise<(PipelineType | null)[]> {
  const rows = await sqlRows<PipelineType>(ctx.em, `select id, sha, ref, status from ci_pipelines where id = any(${intArray(ids)})`);
  return byId(ids, rows, (p) => p.id);
}

/** Batched lookups behind a job's user, commit, pipeline and project (no query per job). */
export function ciLoaders(ctx: RequestCtx) {
  return {
    ciUser: new PeekLoader<number, User | null>(async (ids) => byId(ids, await lightEntitiesById(ctx.em, User, ids), (u) => u.id)),
    ciProject: new PeekLoader<number, Project | null>(async (ids) => byId(ids, await lightEntitiesById(ctx.em, Project, ids), (p) => p.id)),
    ciPipeline: new PeekLoader<number, PipelineType | null>((ids) => loadPipelines(ctx, ids)),
    ciPipelineCommit: new PeekLoader<number, CommitType | null>((ids) => loadPipelineCommits(ctx, ids)),
  };
}

/**
 * Loads the relations of a page of jobs in one batch each (user, pipeline, commit, project, then the
 * projects' namespaces) before the page is returned, so that each job's relation fields resolve
 * without a promise (issue 8). Same statements as the lazy batches: one per relation.
 */
export async function preloadJobRelations(ctx: RequestCtx, jobs: readonly { userId: number | null; pipelineId: number; projectId: number }[]): Promise<void> {
  if (jobs.length === 0) return;
  const l = ctx.loaders;
  const users = jobs.flatMap((j) => (j.userId === null ? [] : [j.userId]));
  const pipelines = jobs.map((j) => j.pipelineId);
  await Promise.all([l.ciUser.preload(users), l.ciPipeline.preload(pipelines), l.ciPipelineCommit.preload(pipelines), l.ciProject.preload(jobs.map((j) => j.projectId))]);
  const namespaces = jobs.flatMap((j) => {
    const p = l.ciProject.peek(j.projectId);
    return p ? [p.namespaceId] : [];
  });
  await l.namespace.preload(namespaces);
}

type CiLoaders = ReturnType<typeof ciLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends CiLoaders {}
}
