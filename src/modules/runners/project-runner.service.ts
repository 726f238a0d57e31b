import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { isUniqueViolation, sqlRows } from '../../core/db/sql';
import { checkUnmodifiedSince, claimForDelete } from '../../core/db/delete-claim';
import { ConflictError, ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access';
import type { Project } from '../projects';
import { projectService } from '../projects';
import { forgetOwnedRunners, ownsRunner } from './runner.policy';
import { checkScope, listRunners } from './runner-list.query';
import { Runner, RunnerProject } from './runner.entity';
import type { ProjectRunnersArgs } from './runner.inputs';
import { runnerService } from './runner.service';
import { projectPolicy } from '../projects';

/**
 * Project runners (spec 4.7-4.9). GitLab runs a filter before anything else on these routes: the
 * project must be visible (else 404 Project Not Found) and the caller Master or above (else 403);
 * parameters are checked after it, so the services check them too.
 */
async function findAdministrable(ctx: RequestCtx, projectId: string): Promise<Project> {
  const user = requireUser(ctx);
  const project = await projectService.findVisible(ctx, projectId);
  if (!projectPolicy.canAdminProject(user, policy.isAdmin(user) ? 0 : await projectService.accessLevel(ctx, project)))
    throw new ForbiddenError();
  return project;
}

/**
 * Spec 4.7: runners enabled in the project, and shared runners when the project has shared runners
 * enabled. (GitLab 10.3 lists every shared runner regardless; the spec's rule wins: docs/gitlab-compatibility.md#where-we-chose-between-the-spec-and-the-reference.)
 */
async function list(ctx: RequestCtx, args: ProjectRunnersArgs): Promise<Page<Runner>> {
  const project = await findAdministrable(ctx, args.projectId);
  const scope = checkScope(args.scope, ['active', 'paused', 'online', 'specific', 'shared']);
  // `= any(array(…))` or `r.is_shared`: index scans ORed in one bitmap; a specific/shared scope keeps one source.
  const linked =
    scope === 'shared'
      ? []
      : ['r.id = any(array(select rp.runner_id from ci_runner_projects rp where rp.project_id = ?))'];
  const shared = project.sharedRunnersEnabled && scope !== 'specific' ? ['r.is_shared'] : [];
  const base = [...linked, ...shared];
  return listRunners(
    ctx,
    base.length ? `(${base.join(' or ')})` : 'false',
    linked.length ? [project.id] : [],
    scope,
    args,
  );
}

/** Spec 4.8, GitLab's order: runner 404, shared 403, locked 403, then (non-admins) ownership 403; 409 when already enabled. */
async function enable(ctx: RequestCtx, projectId: string, runnerId: number | null | undefined): Promise<Runner> {
  const project = await findAdministrable(ctx, projectId);
  if (runnerId === undefined || runnerId === null) throw ParamError.missing('runner_id');
  const runner = await runnerService.find(ctx, runnerId);
  if (runner.isShared) throw new ForbiddenError('Runner is shared');
  if (runner.locked) throw new ForbiddenError('Runner is locked');
  if (!policy.isAdmin(ctx.user) && !(await ownsRunner(ctx, runner.id))) throw new ForbiddenError('No access granted');
  const conflict = new ConflictError('Runner was already enabled for this project');
  if (await ctx.em.findOne(RunnerProject, { runnerId: runner.id, projectId: project.id })) throw conflict;
  try {
    await ctx.em.transactional(async (em) => {
      // The runner's row, as its delete and disables take it: a delete's project count sees this link, or the link waits for the delete.
      const [live] = await sqlRows(em, 'select 1 from ci_runners where id = ? for no key update', [runner.id]);
      if (!live) throw new NotFoundError();
      await sqlRows(em, 'insert into ci_runner_projects (runner_id, project_id, created_at) values (?, ?, ?)', [
        runner.id,
        project.id,
        ctx.clock.now(),
      ]);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict;
    throw e;
  }
  forgetOwnedRunners(ctx);
  return runner;
}

/** Spec 4.9: only a runner enabled here (404 Runner Not Found), never its last project (403), then 204. */
async function disable(ctx: RequestCtx, projectId: string, runnerId: number): Promise<boolean> {
  const project = await findAdministrable(ctx, projectId);
  await ctx.em.transactional(async (em) => {
    // The runner's row first (as enabling and deleting take it): two disables of one runner's last two projects cannot both pass the count.
    await sqlRows(em, 'select 1 from ci_runners where id = ? for no key update', [runnerId]);
    const { modified } = await claimForDelete(ctx, em, {
      table: 'ci_runner_projects',
      where: 'runner_id = ? and project_id = ?',
      params: [runnerId, project.id],
      missing: () => new NotFoundError('Runner'),
      modifiedColumn: 'created_at',
      deferPrecondition: true,
    });
    if ((await runnerService.projectCount(em, runnerId)) === 1)
      throw new ForbiddenError('Only one project associated with the runner. Please remove the runner instead');
    checkUnmodifiedSince(ctx, modified);
    await em.nativeDelete(RunnerProject, { runnerId, projectId: project.id });
  });
  forgetOwnedRunners(ctx);
  return true;
}

export const projectRunnerService = { list, enable, disable };
