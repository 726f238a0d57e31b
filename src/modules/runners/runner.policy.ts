import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { AccessLevel, policy } from '../access';
import { projectIdsWithLevel } from '../projects';
import type { Runner } from './runner.entity';
import type { Loaded } from '../../core/context/peek-loader';

/**
 * Runners "owned" by a user (GitLab `ci_authorized_runners`: specific runners enabled in one of
 * `authorized_projects(MASTER)`): specific runners enabled in a project where the user's access is
 * Master or above through project membership, group membership (here or in an ancestor group), a
 * share of the project with such a group (the share's access must be Master too: GitLab keeps the
 * lower of the two), or their personal namespace. Shared runners never count; being an admin does
 * not widen the set. Computed once per request and inlined as an int array.
 */
function ownedRunnerIdsSql(user: CurrentUser): string {
  return `select distinct rp.runner_id as id from ci_runner_projects rp join ci_runners r on r.id = rp.runner_id
     where rp.project_id = any(array(${projectIdsWithLevel(Number(user.id), AccessLevel.MASTER)})) and not r.is_shared`;
}

export function ownedRunnerIds(ctx: RequestCtx): Promise<number[]> {
  const user = ctx.user;
  if (!user) return Promise.resolve([]);
  let hit = ctx.memo.get('ownedRunnerIds') as Promise<number[]> | undefined;
  if (!hit) {
    hit = sqlRows<{ id: number }>(ctx.em, ownedRunnerIdsSql(user)).then((rows) => rows.map((r) => Number(r.id)));
    ctx.memo.set('ownedRunnerIds', hit);
  }
  return hit;
}

function ownedRunnerSet(ctx: RequestCtx): Promise<Set<number>> {
  let hit = ctx.memo.get('ownedRunnerSet') as Promise<Set<number>> | undefined;
  if (!hit) {
    hit = ownedRunnerIds(ctx).then((ids) => new Set(ids));
    ctx.memo.set('ownedRunnerSet', hit);
  }
  return hit;
}

export async function ownsRunner(ctx: RequestCtx, runnerId: number): Promise<boolean> {
  return (await ownedRunnerSet(ctx)).has(runnerId);
}

/**
 * GET /runners/:id (spec 4.3; GitLab `authenticate_show_runner!`): admins any runner, every signed-in
 * user a shared one, others only the runners they own.
 */
export async function mayReadRunner(ctx: RequestCtx, runner: Runner): Promise<boolean> {
  return runner.isShared || policy.isAdmin(ctx.user) || (!!ctx.user && (await ownsRunner(ctx, runner.id)));
}

/**
 * Whether the caller sees a runner's token, on every surface and in every list (GraphQL `Runner.token`,
 * REST RunnerDetails): GitLab shows it in the details of GET /runners/:id, i.e. to admins always and
 * otherwise for the specific runners the caller owns (Entities::RunnerDetails: `admin? ||
 * !is_shared?`, after `authenticate_show_runner!`). Being Master of a project the runner is enabled in
 * (through a share too) is owning it, so the project's runner list and GET /runners/:id agree.
 */
export function mayReadRunnerToken(ctx: RequestCtx, runner: Runner): Loaded<boolean> {
  // Answered at once where no lookup is needed: a list of runners costs no promise per row for admins.
  if (policy.isAdmin(ctx.user)) return true;
  if (runner.isShared || !ctx.user) return false;
  return ownsRunner(ctx, runner.id);
}

/** After enabling, disabling or deleting runners. */
export function forgetOwnedRunners(ctx: RequestCtx): void {
  ctx.memo.delete('ownedRunnerIds');
  ctx.memo.delete('ownedRunnerSet');
}
