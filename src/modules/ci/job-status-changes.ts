import type { RequestCtx } from '../../core/context/request-ctx';
import { liveIterator } from '../../core/events/live';
import { jobService } from './job.service';
import type { JobRow } from './job.type';

/**
 * The channel of the ci_builds trigger (Migration20261205100000_ci_job_status_notify): one notification
 * per committed status change, whoever wrote it (the CI system sharing the database, a seed, psql).
 */
export const JOB_STATUS_CHANNEL = 'ci_job_status';

/**
 * The text the trigger sends for a job, `{"id":<n>}` (Migration20261208100000_ci_job_status_notify_id):
 * a subscriber compares it, without parsing every notice of every job.
 */
export const jobStatusNotice = (jobId: number) => `{"id":${jobId}}`;

/**
 * Subscription.ciJobStatusUpdated(jobId): the job, read again, after each committed change of its
 * status, on any instance. Who receives it: whoever may read the job (`node(id)`'s rule: a job is
 * visible with its project), decided per event with the renewed context; a job the caller may not see
 * (or that does not exist) gives no event and no error, so a subscription tells nothing about it.
 * Other jobs' notifications are dropped before any query (`accept`).
 */
export function jobStatusChanges(ctx: RequestCtx, jobId: number): Promise<AsyncIterableIterator<JobRow>> {
  const notice = jobStatusNotice(jobId);
  return liveIterator(ctx, JOB_STATUS_CHANNEL, {
    accept: (payload) => payload === notice,
    // The read applies the visibility (one statement), so every row loaded may be delivered.
    load: (fresh) => jobService.visibleByIds(fresh, [jobId]),
    visible: async () => true,
  });
}
