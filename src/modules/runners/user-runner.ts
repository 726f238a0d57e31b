import crypto from 'node:crypto';
import { Field, InputType, Int } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { reserveRowId } from '../../core/crypto/reserve-row-id';
import { INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import { BadRequestError, ForbiddenError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { checkColumnLengths } from '../../core/validation/column-length';
import { policy } from '../access';
import { projectPolicy, projectService } from '../projects';
import { checkRunnerRules, normalizeTags } from './runner-tags';
import { runnerTokenSlot } from './runner-token';
import { forgetOwnedRunners } from './runner.policy';
import { Runner, RunnerProject } from './runner.entity';
import { ACCESS_LEVEL_VALUE, CiRunnerType, RunnerAccessLevel, RunnerRegistrationType } from './runner.type';

/**
 * Runner creation by a signed-in user (current GitLab's `POST /user/runners` and GraphQL `runnerCreate`,
 * https://docs.gitlab.com/ee/api/users.html#create-a-runner-linked-to-a-user; its CreateRunnerService):
 * an instance runner by an admin, a project runner by the project's Maintainers. Runners here are
 * shared or enabled in projects; there are no group runners, so `GROUP_TYPE` is refused.
 */
@InputType('CreateRunnerInput')
export class CreateRunnerInput {
  @Field(() => CiRunnerType) runnerType!: CiRunnerType;
  @Field(() => Int, { nullable: true, description: 'Required for GROUP_TYPE.' }) groupId?: number;
  @Field(() => Int, { nullable: true, description: 'Required for PROJECT_TYPE.' }) projectId?: number;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => String, { nullable: true, description: 'Accepted and not stored.' }) maintenanceNote?: string;
  @Field(() => Boolean, { nullable: true, description: 'Default false.' }) paused?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Default false.' }) locked?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Default true.' }) runUntagged?: boolean;
  @Field(() => [String], { nullable: true, description: 'Comma lists are split.' }) tagList?: string[];
  @Field(() => RunnerAccessLevel, { nullable: true }) accessLevel?: RunnerAccessLevel;
  @Field(() => Int, { nullable: true, description: 'At least 600 seconds.' }) maximumTimeout?: number;
}

/** GitLab's prefix of the tokens of runners created this way. */
const TOKEN_PREFIX = 'glrt-';
const bad = (text: string) => new BadRequestError(`400 Bad request - ${text}`);
const insufficient = () => new ForbiddenError('Insufficient permissions');

/** Rails' `errors.full_messages.to_sentence`, as GitLab answers a runner it cannot save. */
function sentence(bag: FieldErrorBag): string {
  const messages = Object.entries(bag.errors).flatMap(([field, msgs]) => {
    const name = field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');
    return msgs.map((m) => `${name} ${m}`);
  });
  return messages.length < 2 ? messages.join('') : `${messages.slice(0, -1).join(', ')} and ${messages.at(-1)}`;
}

/** The project the runner is for: an unknown or invisible one is GitLab's "Missing/invalid project". */
async function projectScope(ctx: RequestCtx, projectId: number | undefined): Promise<number> {
  const [project] = projectId == null ? [] : await projectService.visibleByIds(ctx, [projectId]);
  if (!project) throw bad('Missing/invalid project');
  const user = requireUser(ctx);
  const level = policy.isAdmin(user) ? 0 : await projectService.accessLevel(ctx, project);
  if (!projectPolicy.canAdminProject(user, level)) throw insufficient();
  return project.id;
}

async function create(ctx: RequestCtx, input: CreateRunnerInput): Promise<RunnerRegistrationType> {
  const user = requireUser(ctx);
  let projectId: number | null = null;
  if (input.runnerType === CiRunnerType.GROUP_TYPE) throw bad('Group runners are not supported');
  if (input.runnerType === CiRunnerType.PROJECT_TYPE) projectId = await projectScope(ctx, input.projectId);
  else if (!policy.isAdmin(user)) throw insufficient();

  const runner = new Runner();
  runner.isShared = projectId === null;
  runner.description = input.description ?? '';
  runner.active = !(input.paused ?? false);
  runner.locked = input.locked ?? false;
  runner.runUntagged = input.runUntagged ?? true;
  runner.tagList = normalizeTags(input.tagList ?? []);
  runner.accessLevel = ACCESS_LEVEL_VALUE[input.accessLevel ?? RunnerAccessLevel.NOT_PROTECTED];
  runner.maximumTimeout = input.maximumTimeout ?? null;
  runner.creatorId = user.id;
  runner.createdAt = runner.updatedAt = ctx.clock.now();
  const bag = new FieldErrorBag();
  checkColumnLengths(bag, ctx.em.getMetadata().get(Runner.name), runner, ['description']);
  checkRunnerRules(bag, runner);
  if (!bag.empty) throw bad(sentence(bag));

  // The token is sealed for the runner's own row: its id is taken before the insert.
  const plain = `${TOKEN_PREFIX}${crypto.randomBytes(15).toString('hex')}`;
  runner.id = await reserveRowId(ctx.em, 'ci_runners');
  runner.token = ctx.secrets.seal(plain, runnerTokenSlot(runner.id));
  runner.tokenDigest = ctx.secrets.digest(plain);
  await ctx.em.transactional(async (em) => {
    em.persist(runner);
    await em.flush();
    if (projectId !== null)
      em.persist(em.create(RunnerProject, { runnerId: runner.id, projectId, createdAt: ctx.clock.now() }));
    await em.flush();
    await recordAudit(ctx, em, [
      {
        ...INSTANCE_SCOPE,
        targetType: 'Ci::Runner',
        targetId: runner.id,
        targetDetails: runner.description || `#${runner.id}`,
        action: { add: 'runner' },
      },
    ]);
  });
  forgetOwnedRunners(ctx);
  return { id: runner.id, token: plain, tokenExpiresAt: null };
}

export const userRunnerService = { create };
