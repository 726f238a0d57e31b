import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { reserveRowId } from '../../core/crypto/reserve-row-id';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { projectIdByRunnersToken } from '../projects';
import { isInstanceRegistrationToken } from './registration-token';
import { forgetOwnedRunners } from './runner.policy';
import { validateRunner } from './runner-tags';
import { newRunnerToken, runnerTokenSlot } from './runner-token';
import { patchEntity } from '../../core/patch/patch-entity';
import { RUNNER_PATCH } from './runner.service';
import { Runner, RunnerProject } from './runner.entity';
import { UpdateRunnerInput, type RegisterRunnerInput } from './runner.inputs';

/**
 * The runner-facing minimum (GitLab's lib/api/runner.rb; https://docs.gitlab.com/ee/api/runners.html):
 * register with the instance registration token (a shared runner) or a project's runners_token (a
 * specific runner enabled in that project), unregister and verify with the runner's own token.
 * Any unknown token answers 403 {"message":"403 Forbidden"}.
 */
async function register(ctx: RequestCtx, input: RegisterRunnerInput): Promise<{ id: number; token: string }> {
  const shared = await isInstanceRegistrationToken(ctx, input.token);
  const projectId = shared ? null : await projectIdByRunnersToken(ctx, input.token);
  if (!shared && projectId === null) throw new ForbiddenError();
  const runner = new Runner();
  runner.isShared = shared;
  // The create input extends the update input: the same allow-list and storage mapping.
  patchEntity(runner, input, UpdateRunnerInput, RUNNER_PATCH);
  const info = new Map((input.info ?? []).map((e) => [e.key, e.value]));
  runner.name = info.get('name') ?? null;
  runner.version = info.get('version') ?? null;
  runner.revision = info.get('revision') ?? null;
  runner.platform = info.get('platform') ?? null;
  runner.architecture = info.get('architecture') ?? null;
  runner.createdAt = runner.updatedAt = ctx.clock.now();
  validateRunner(ctx, runner);
  // The token is sealed for the runner's own row: its id is taken before the insert.
  const plain = newRunnerToken();
  runner.id = await reserveRowId(ctx.em, 'ci_runners');
  runner.token = ctx.secrets.seal(plain, runnerTokenSlot(runner.id));
  runner.tokenDigest = ctx.secrets.digest(plain);
  await ctx.em.transactional(async (em) => {
    em.persist(runner);
    await em.flush();
    if (projectId !== null)
      em.persist(em.create(RunnerProject, { runnerId: runner.id, projectId, createdAt: ctx.clock.now() }));
    await em.flush();
  });
  forgetOwnedRunners(ctx);
  return { id: runner.id, token: plain };
}

async function byToken(ctx: RequestCtx, token: string): Promise<Runner> {
  const runner = await ctx.em.findOne(Runner, { tokenDigest: { $in: ctx.secrets.digests(token) } });
  if (!runner) throw new ForbiddenError();
  return runner;
}

/** DELETE /runners: the runner removes itself (204). */
async function unregister(ctx: RequestCtx, token: string): Promise<boolean> {
  const runner = await byToken(ctx, token);
  await ctx.em.transactional(async (em) => {
    // GitLab's destroy_conditionally!(current_runner); unregistered meanwhile: the token is unknown now (403).
    await claimForDelete(ctx, em, { ...byId('ci_runners', runner.id), missing: () => new ForbiddenError() });
    await em.nativeDelete(Runner, { id: runner.id });
  });
  forgetOwnedRunners(ctx);
  return true;
}

/** POST /runners/verify: valid credentials (200); records the contact, which drives `online`. */
async function verify(ctx: RequestCtx, token: string): Promise<boolean> {
  const runner = await byToken(ctx, token);
  runner.contactedAt = ctx.clock.now();
  await ctx.em.flush();
  return true;
}

export const runnerRegistrationService = { register, unregister, verify };
