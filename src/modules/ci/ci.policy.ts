import type { CurrentUser as User } from '../../core/context/request-ctx';
import { AccessLevel, policy } from '../access';

/** Who may read a project's jobs (docs/permissions.md). */
export const ciPolicy = {
  /**
   * GitLab's read_build on a project the caller can see: jobs enabled, and public jobs or Reporter and
   * above (admins always). `level` is only read when the jobs are not public.
   */
  canReadJobs: (user: User | null, project: { jobsEnabled: boolean; publicJobs: boolean }, level: () => number) =>
    project.jobsEnabled && (project.publicJobs || (!!user && policy.atLeast(user, level(), AccessLevel.REPORTER))),
};
