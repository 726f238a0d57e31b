import type { RequestCtx } from '../../core/context/request-ctx';
import type { JobRow } from './job.type';

export function missing(job: { id: number }, what: string): never {
  throw new Error(`CI row ${job.id} has no ${what}`);
}

/** `/<project full path>` under the instance's relative URL root (the project and namespace through their loaders). */
export async function projectPath(ctx: RequestCtx, job: Pick<JobRow, 'id' | 'projectId'>): Promise<string> {
  const project = (await ctx.loaders.ciProject.get(job.projectId)) ?? missing(job, 'project');
  const ns = (await ctx.loaders.namespace.get(project.namespaceId)) ?? missing(job, 'namespace');
  return `${new URL(ctx.externalUrl).pathname.replace(/\/$/, '')}/${ns.fullPath}/${project.path}`;
}

/** GitLab's project_job_path: `/<project>/-/jobs/<id>`. */
export async function jobPath(ctx: RequestCtx, job: Pick<JobRow, 'id' | 'projectId'>): Promise<string> {
  return `${await projectPath(ctx, job)}/-/jobs/${job.id}`;
}
