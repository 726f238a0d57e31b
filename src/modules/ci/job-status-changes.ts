import type { RequestCtx } from '../../core/context/request-ctx';
import { liveIterator } from '../../core/events/live';
import { jobService } from './job.service';
import type { JobRow } from './job.type';

/**
 * The channel of the ci_builds trigger (Migration20261205100000_ci_job_status_notify): one notification
 * per committed status change, whoever wrote it (the CI system sharing the database, a seed, psql).
 */
export const JOB_STATUS_CHANNEL = 'ci_job_status';

/** What the trigger sends; only `id` is relied on (the job is read again as it is at delivery). */
export interface JobStatusNotice {
  id: number;
  runner_id: number | null;
  project_id: number;
  status: string;
}

export function parseJobStatusNotice(payload: string): JobStatusNotice | null {
  try {
    const n = JSON.parse(payload) as Partial<JobStatusNotice>;
    return typeof n.id === 'number' && Number.isSafeInteger(n.id) ? (n as JobStatusNotice) : null;
  } catch {
    return null;
  }
}

/**
 * Subscription.ciJobStatusUpdated(jobId): the job, read again, after each committed change of its
 * status, on any instance. Who receives it: whoever may read the job (`node(id)`'s rule: a job is
 * visible with its project), decided per event with the renewed context; a job the caller may not see
 * (or that does not exist) gives no event and no error, so a subscription tells nothing about it.
 * Other jobs' notifications are dropped before any query (`accept`).
 */
export function jobStatusChanges(ctx: RequestCtx, jobId: number): Promise<AsyncIterableIterator<JobRow>> {
  return liveIterator(ctx, JOB_STATUS_CHANNEL, {
    accept: (payload) => parseJobStatusNotice(payload)?.id === jobId,
    // The read applies the visibility (one statement), so every row loaded may be delivered.
    load: (fresh) => jobService.visibleByIds(fresh, [jobId]),
    visible: async () => true,
  });
}
