import type { RequestCtx } from '../../core/context/request-ctx';
import { AccessLevel, policy } from '../access';
import { missing } from './job-paths';
import type { JobPermissionsType } from './job-page.type';
import type { JobRow } from './job.type';

/**
 * GitLab's update_build on a job the caller can read: Developer and above (admins always) in a project
 * whose jobs are enabled and that is not archived (ProjectPolicy). JobPolicy's protected-ref rule needs
 * protected branches, which this service does not store: every ref counts as unprotected.
 */
export async function canUpdateJob(ctx: RequestCtx, job: Pick<JobRow, 'id' | 'projectId'>): Promise<boolean> {
  if (!ctx.user) return false;
  const project = (await ctx.loaders.ciProject.get(job.projectId)) ?? missing(job, 'project');
  if (!project.jobsEnabled || project.archived) return false;
  const level = ctx.user.admin ? 0 : await ctx.loaders.projectLevel.load(job.projectId);
  return policy.atLeast(ctx.user, level, AccessLevel.DEVELOPER);
}

/**
 * GitLab's JobPermissions of a job the caller reads (a job is only answered to those with read_build):
 * read_job_artifacts follows read_build for a job without artifacts (all of them here), cancel_build
 * follows update_build.
 */
export async function jobPermissions(ctx: RequestCtx, job: JobRow): Promise<JobPermissionsType> {
  const update = await canUpdateJob(ctx, job);
  return { readBuild: true, readJobArtifacts: true, updateBuild: update, cancelBuild: update };
}
