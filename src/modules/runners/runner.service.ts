import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { changes, INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import { requireUser } from '../../core/auth/guards';
import { lightEntitiesById, sqlRows } from '../../core/db/sql';
import { ForbiddenError, NotFoundError, ParamError } from '../../core/errors/domain-errors';
import type { Page } from '../../core/pagination/page';
import { policy, intArray } from '../access';
import type { JobListArgs } from '../ci';
import { jobService } from '../ci';
import type { JobRow } from '../ci';
import { forgetOwnedRunners, mayReadRunner, ownedRunnerIds, ownsRunner } from './runner.policy';
import { checkScope, listRunners } from './runner-list.query';
import { normalizeTags, validateRunner } from './runner-tags';
import { Runner } from './runner.entity';
import { UpdateRunnerInput, type AllRunnersArgs, type RunnersArgs } from './runner.inputs';
import { inputFields, patchEntity, type PatchMapping } from '../../core/patch/patch-entity';
import { ACCESS_LEVEL_VALUE } from './runner.type';

const NO_ACCESS = 'No access granted';
const UPDATABLE = ['description', 'active', 'tag_list', 'run_untagged', 'locked', 'access_level'];

/** Spec 4.1: specific runners the caller owns (runner.policy.ts); scope active, paused or online. */
async function list(ctx: RequestCtx, args: RunnersArgs): Promise<Page<Runner>> {
  requireUser(ctx);
  const scope = checkScope(args.scope, ['active', 'paused', 'online']);
  return listRunners(ctx, `r.id = any(${intArray(await ownedRunnerIds(ctx))})`, [], scope, args);
}

/** Spec 4.2: every runner; administrators only (checked after the parameters, as GitLab does). */
async function listAll(ctx: RequestCtx, args: AllRunnersArgs): Promise<Page<Runner>> {
  const scope = checkScope(args.scope, ['active', 'paused', 'online', 'specific', 'shared']);
  if (!policy.isAdmin(ctx.user)) throw new ForbiddenError();
  return listRunners(ctx, 'true', [], scope, args);
}

/** Lookup by primary key: GitLab's generic 404 "404 Not found". */
async function find(ctx: RequestCtx, id: number): Promise<Runner> {
  const runner = await ctx.em.findOne(Runner, { id });
  if (!runner) throw new NotFoundError();
  return runner;
}

/** Spec 4.3: admins any runner, everyone any shared runner, others the runners they own (runner.policy.ts). */
async function get(ctx: RequestCtx, id: number): Promise<Runner> {
  requireUser(ctx);
  const runner = await find(ctx, id);
  if (!(await mayReadRunner(ctx, runner))) throw new ForbiddenError(NO_ACCESS);
  return runner;
}

/** Non-admins may change or remove only specific runners they own (GitLab's order of checks). */
async function findWritable(ctx: RequestCtx, id: number, extra?: (runner: Runner) => Promise<void>): Promise<Runner> {
  const user = requireUser(ctx);
  const runner = await find(ctx, id);
  if (policy.isAdmin(user)) return runner;
  if (runner.isShared) throw new ForbiddenError('Runner is shared');
  if (extra) await extra(runner);
  if (!(await ownsRunner(ctx, runner.id))) throw new ForbiddenError(NO_ACCESS);
  return runner;
}

/** How runner inputs are stored where it differs from the input (tags normalized, access level as its number). */
export const RUNNER_PATCH: PatchMapping<UpdateRunnerInput> = {
  tagList: (v) => ({ tagList: normalizeTags(v) }),
  accessLevel: (v) => ({ accessLevel: ACCESS_LEVEL_VALUE[v] }),
  paused: (v) => ({ active: !v }),
};

/** Spec 4.4: at least one attribute; tag_list replaces the tags; the tags-or-run_untagged rule. */
async function update(ctx: RequestCtx, id: number, input: UpdateRunnerInput): Promise<Runner> {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (!inputFields(UpdateRunnerInput).some((f) => given((input as Record<string, unknown>)[f]))) {
    throw new ParamError(`${UPDATABLE.join(', ')} are missing, at least one parameter must be provided`);
  }
  if (given(input.active) && given(input.paused) && input.active === input.paused)
    throw new ParamError('active, paused are mutually exclusive');
  const runner = await findWritable(ctx, id);
  const before = auditedFields(runner);
  patchEntity(runner, input, UpdateRunnerInput, RUNNER_PATCH);
  validateRunner(ctx, runner);
  runner.updatedAt = ctx.clock.now();
  const after = auditedFields(runner);
  await ctx.em.transactional(async (tx) => {
    await tx.flush();
    await recordAudit(
      ctx,
      tx,
      changes(
        auditTarget(runner),
        Object.keys(after).map((k) => ({ name: k, from: before[k], to: after[k] })),
      ),
    );
  });
  return runner;
}

/** Projects the runner is enabled in (`em`: a transaction's, to count under its lock on the runner). */
async function projectCount(em: RequestCtx['em'], runnerId: number): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(
    em,
    'select count(*)::int as n from ci_runner_projects where runner_id = ?',
    [runnerId],
  );
  return row.n;
}

/** Audit events of runners: instance-wide (runners are an administrator's fleet), the runner as the target. */
const auditTarget = (r: Runner) => ({
  ...INSTANCE_SCOPE,
  targetType: 'Ci::Runner',
  targetId: r.id,
  targetDetails: r.description || `#${r.id}`,
});
const auditedFields = (r: Runner): Record<string, unknown> => ({
  description: r.description,
  active: r.active,
  tag_list: [...r.tagList].join(', '),
  run_untagged: r.runUntagged,
  locked: r.locked,
  access_level: r.accessLevel,
  maximum_timeout: r.maximumTimeout,
});

/** Spec 4.5: non-admins: not shared, not enabled in more than one project, owned; then 204. */
async function remove(ctx: RequestCtx, id: number): Promise<boolean> {
  const runner = await findWritable(ctx, id, async (r) => {
    if ((await projectCount(ctx.em, r.id)) > 1)
      throw new ForbiddenError('Runner associated with more than one project');
  });
  await ctx.em.transactional(async (tx) => {
    await claimForDelete(ctx, tx, byId('ci_runners', runner.id));
    // Counted again under the runner's lock: a project enabled meanwhile (project-runner.service.ts takes the same lock).
    if (!policy.isAdmin(ctx.user) && (await projectCount(tx, runner.id)) > 1)
      throw new ForbiddenError('Runner associated with more than one project');
    await tx.nativeDelete(Runner, { id: runner.id });
    await recordAudit(ctx, tx, [{ ...auditTarget(runner), action: { remove: 'runner' } }]);
  });
  forgetOwnedRunners(ctx);
  return true;
}

/** May the caller list this runner's jobs? Admins any; others owned (hence specific) runners only. */
async function canListJobs(ctx: RequestCtx, runner: Runner): Promise<boolean> {
  return policy.isAdmin(ctx.user) || ownsRunner(ctx, runner.id);
}

/** A read-only lookup (light row, no identity map) for routes that only read the runner. */
async function findForRead(ctx: RequestCtx, id: number): Promise<Runner> {
  const [runner] = await lightEntitiesById(ctx.em, Runner, [id]);
  if (!runner) throw new NotFoundError();
  return runner;
}

async function jobs(ctx: RequestCtx, id: number, args: JobListArgs): Promise<Page<JobRow>> {
  requireUser(ctx);
  const runner = await findForRead(ctx, id);
  if (!(await canListJobs(ctx, runner))) throw new ForbiddenError(NO_ACCESS);
  return jobService.listForRunner(ctx, runner.id, args);
}

export const runnerService = { list, listAll, find, get, update, remove, jobs, canListJobs, projectCount };
