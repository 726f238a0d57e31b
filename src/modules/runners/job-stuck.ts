import DataLoader from 'dataloader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { ONLINE_WINDOW_MS } from './runner-list.query';

/** What decides whether a pending job is stuck: its project, whether that project takes shared runners, its tags. */
export interface PendingJob {
  id: number;
  projectId: number;
  sharedRunnersEnabled: boolean;
  tags: string[];
}

/**
 * Which pending jobs are stuck (GitLab's `Ci::Build#stuck?`: pending with no online runner that can pick
 * it): no active runner that made contact within the online window, shared (when the project takes shared
 * runners) or enabled in the job's project, not limited to protected refs (no job is protected here),
 * carrying every tag of the job and, for an untagged job, running untagged jobs (Ci::Runner#can_pick?).
 * One statement for the jobs of a page; the jobs come as values, so only the runner tables are read.
 */
async function loadStuck(ctx: RequestCtx, jobs: readonly PendingJob[]): Promise<boolean[]> {
  const online = new Date(ctx.clock.now().getTime() - ONLINE_WINDOW_MS);
  const rows = await sqlRows<{ id: number }>(
    ctx.em,
    `select j.id from jsonb_to_recordset(?::jsonb) as j(id int, project_id int, shared boolean, tags text[])
      where not exists (
        select 1 from ci_runners r
         where r.active and r.contacted_at > ? and r.access_level = 0
           and (r.run_untagged or cardinality(j.tags) > 0) and j.tags <@ r.tag_list
           and ((r.is_shared and j.shared)
             or exists (select 1 from ci_runner_projects rp where rp.runner_id = r.id and rp.project_id = j.project_id)))`,
    [
      JSON.stringify(
        jobs.map((j) => ({ id: j.id, project_id: j.projectId, shared: j.sharedRunnersEnabled, tags: j.tags })),
      ),
      online,
    ],
  );
  const stuck = new Set(rows.map((r) => Number(r.id)));
  return jobs.map((j) => stuck.has(j.id));
}

/** Per request: every pending job of the request's pages in one statement. */
export const jobStuckLoader = (ctx: RequestCtx) =>
  new DataLoader<PendingJob, boolean, number>((jobs) => loadStuck(ctx, jobs), { cacheKeyFn: (j) => j.id });
