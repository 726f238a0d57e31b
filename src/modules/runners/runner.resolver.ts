import { RunnerIdArg } from './runner.type';
import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Internal } from '../../core/graphql/internal';
import { Allow } from '../../core/auth/allow';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { JobListArgs } from '../ci';
import { JobPage, JobStatus, type JobRow } from '../ci';
import type { Project } from '../projects';
import { UserType, type User } from '../users';
import { ProjectType } from '../projects';
import { projectRunnerService } from './project-runner.service';
import { ONLINE_WINDOW_MS, runnerStatus } from './runner-list.query';
import { runnerRegistrationService } from './runner-registration.service';
import { mayReadRunnerToken, ownsRunner } from './runner.policy';
import { policy } from '../access';
import { runnerTokenSlot } from './runner-token';
import type { Runner } from './runner.entity';
import {
  AllRunnersArgs,
  EnableProjectRunnerArgs,
  ProjectRunnersArgs,
  RegisterRunnerInput,
  RunnersArgs,
  UpdateRunnerInput,
} from './runner.inputs';
import { runnerService } from './runner.service';
import {
  CiRunnerJobExecutionStatus,
  CiRunnerType,
  RunnerPermissionsType,
  RunnerAccessLevel,
  RunnerChangeType,
  RunnerStatus,
  RunnerPage,
  RunnerRegistrationType,
  RunnerType,
  accessLevelOf,
} from './runner.type';
import { runnerChanges, type RunnerChange } from './runner-changes';
import type { Loaded } from '../../core/context/peek-loader';

@Resolver(() => RunnerType)
export class RunnerResolver {
  /** GitLab 10.3's `GET /runners` (the specific runners a user owns), which GitLab's GraphQL API does not have. */
  @Internal()
  @Query(() => RunnerPage, { description: 'Specific runners the caller owns.' })
  @Allow('user')
  ownedRunners(@Args() args: RunnersArgs, @Ctx() ctx: RequestCtx): Promise<Page<Runner>> {
    return runnerService.list(ctx, args);
  }

  @Query(() => RunnerPage, {
    description: "All runners of the instance, shared and specific (GitLab's `runners`); administrators only.",
  })
  @Allow('user')
  runners(@Args() args: AllRunnersArgs, @Ctx() ctx: RequestCtx): Promise<Page<Runner>> {
    return runnerService.listAll(ctx, args);
  }

  @Query(() => RunnerType, { description: 'A runner.' })
  @Allow('user')
  runner(@Arg('id', () => RunnerIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<Runner> {
    return runnerService.get(ctx, id);
  }

  /** REST's GET /runners/:id/jobs: internal view only; GraphQL clients read `CiRunner.jobs`. */
  @Internal()
  @Query(() => JobPage, { description: "A runner's jobs, ordered by id." })
  @Allow('user')
  runnerJobs(
    @Arg('id', () => RunnerIdArg) id: number,
    @Args() args: JobListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<JobRow>> {
    return runnerService.jobs(ctx, id, args);
  }

  /** REST's GET /projects/:id/runners: internal view only; GraphQL clients read `Project.runners`. */
  @Internal()
  @Query(() => RunnerPage, {
    description: 'Runners enabled in a project, plus shared ones when the project uses them.',
  })
  @Allow('user')
  projectRunners(@Args() args: ProjectRunnersArgs, @Ctx() ctx: RequestCtx): Promise<Page<Runner>> {
    return projectRunnerService.list(ctx, args);
  }

  @Mutation(() => RunnerType, { description: 'Changes the given attributes of a runner.' })
  @Allow('user')
  updateRunner(
    @Arg('id', () => RunnerIdArg) id: number,
    @Arg('input', () => UpdateRunnerInput) input: UpdateRunnerInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Runner> {
    return runnerService.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Removes a runner.' })
  @Allow('user')
  deleteRunner(@Arg('id', () => RunnerIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return runnerService.remove(ctx, id);
  }

  @Mutation(() => RunnerType, { description: 'Enables a specific runner in a project.' })
  @Allow('user')
  @PayloadMutation({ name: 'runnerAssignToProject' })
  enableProjectRunner(@Args() args: EnableProjectRunnerArgs, @Ctx() ctx: RequestCtx): Promise<Runner> {
    return projectRunnerService.enable(ctx, args.projectPath, args.runnerId);
  }

  @Mutation(() => Boolean, { description: 'Disables a specific runner in a project.' })
  @Allow('user')
  @PayloadMutation({ name: 'runnerUnassignFromProject' })
  disableProjectRunner(
    @Arg('projectPath', () => ID, {
      description: 'Full path (or id) of the project from which the runner will be unassigned.',
    })
    projectPath: string,
    @Arg('runnerId', () => RunnerIdArg) runnerId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return projectRunnerService.disable(ctx, projectPath, runnerId);
  }

  @Mutation(() => RunnerRegistrationType, {
    description: 'Runner-facing: registers a runner (no user token; the registration token decides).',
  })
  @Allow('anonymous')
  registerRunner(
    @Arg('input', () => RegisterRunnerInput) input: RegisterRunnerInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<RunnerRegistrationType> {
    return runnerRegistrationService.register(ctx, input);
  }

  @Mutation(() => Boolean, { description: 'Runner-facing: a runner removes itself with its own token.' })
  @Allow('anonymous')
  unregisterRunner(@Arg('token', () => String) token: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return runnerRegistrationService.unregister(ctx, token);
  }

  @Mutation(() => Boolean, { description: "Runner-facing: checks a runner's token." })
  @Allow('anonymous')
  verifyRunner(@Arg('token', () => String) token: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return runnerRegistrationService.verify(ctx, token);
  }

  @Subscription(() => RunnerChangeType, {
    description:
      'Live: each runner changed (paused or resumed, description, tags, …) or removed, on any instance (WebSocket, graphql-transport-ws). ' +
      'Administrators receive every runner; other users the runners `runner(id)` shows them. `online` changes with time and is not an event: derive it from contactedAt.',
    subscribe: ({ args, context }) => runnerChanges(context as RequestCtx, (args as { id?: number | null }).id),
  })
  @Allow('user')
  runnerChanged(
    @Root() change: RunnerChange,
    @Arg('id', () => RunnerIdArg, { nullable: true, description: 'Only this runner.' }) _id?: number,
  ): RunnerChange {
    return change;
  }

  @FieldResolver(() => RunnerAccessLevel)
  accessLevel(@Root() r: Runner): RunnerAccessLevel {
    return accessLevelOf(r.accessLevel);
  }

  @FieldResolver(() => RunnerStatus, { description: "From the last contact (later GitLab's runner status)." })
  status(@Root() r: Runner, @Ctx() ctx: RequestCtx): RunnerStatus {
    return RunnerStatus[runnerStatus(r, ctx.clock.now())];
  }

  @FieldResolver(() => UserType, {
    nullable: true,
    description:
      'User that created this runner with `runnerCreate`; null for a runner registered with a registration token, or when that user is gone.',
  })
  createdBy(@Root() r: Runner, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    return r.creatorId === null ? null : ctx.loaders.user.get(r.creatorId);
  }

  @FieldResolver(() => CiRunnerType, {
    description: "INSTANCE_TYPE for a shared runner, PROJECT_TYPE for a specific one (GitLab's runnerType).",
  })
  runnerType(@Root() r: Runner): CiRunnerType {
    return r.isShared ? CiRunnerType.INSTANCE_TYPE : CiRunnerType.PROJECT_TYPE;
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description:
      'Jobs this runner ran, counted up to 10,000 (null above); null too where `jobs` is (the caller may not list them). Batched across the runners of a list.',
  })
  async jobCount(
    @Root() r: Runner,
    @Ctx() ctx: RequestCtx,
    @Arg('statuses', () => [JobStatus], {
      nullable: true,
      description: 'Only jobs in one of these statuses (all when omitted; an empty list counts none).',
    })
    statuses?: JobStatus[] | null,
  ): Promise<number | null> {
    if (!ctx.user || !(await runnerService.canListJobs(ctx, r))) return null;
    // One argument set per distinct set of statuses, whatever their order or repetitions.
    return ctx.loaders.runnerJobCount.load({
      parentId: r.id,
      args: { statuses: statuses ? [...new Set(statuses)].sort() : null },
    });
  }

  @FieldResolver(() => Boolean, { description: "Not active: takes no jobs (later GitLab's paused)." })
  paused(@Root() r: Runner): boolean {
    return !r.active;
  }

  @FieldResolver(() => Boolean, { description: 'Contacted within the last hour.' })
  online(@Root() r: Runner, @Ctx() ctx: RequestCtx): boolean {
    return !!r.contactedAt && r.contactedAt.getTime() > ctx.clock.now().getTime() - ONLINE_WINDOW_MS;
  }

  // Who sees it: runner.policy.ts `mayReadRunnerToken` (the caller of GET /runners/:id); null when the stored token does not open.
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Administrators always; others only for specific runners.',
  })
  token(@Root() r: Runner, @Ctx() ctx: RequestCtx): Loaded<string | null> {
    const reveal = (may: boolean) => (may ? ctx.secrets.openOrNull(r.token, runnerTokenSlot(r.id)) : null);
    const may = mayReadRunnerToken(ctx, r);
    return typeof may === 'boolean' ? reveal(may) : may.then(reveal);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      "The first eight characters of the runner's token (after a `glrt-` prefix), which identify it; null when its stored token does not open.",
  })
  shortSha(@Root() r: Runner, @Ctx() ctx: RequestCtx): string | null {
    const token = ctx.secrets.openOrNull(r.token, runnerTokenSlot(r.id));
    return token === null ? null : token.replace(/^glrt-/, '').slice(0, 8);
  }

  @FieldResolver(() => ProjectType, {
    nullable: true,
    description:
      'The project the runner was enabled in first (GitLab: its owner); null for a shared runner and when the caller may not see it. Batched across the runners of a list.',
  })
  async ownerProject(@Root() r: Runner, @Ctx() ctx: RequestCtx): Promise<Project | null> {
    const { first } = await ctx.loaders.runnerProjectLinks.load(r.id);
    return first === null ? null : ctx.loaders.visibleProject.get(first);
  }

  @FieldResolver(() => Int, {
    description: 'Number of projects the runner is enabled in (all of them, also those the caller cannot see).',
  })
  async projectCount(@Root() r: Runner, @Ctx() ctx: RequestCtx): Promise<number> {
    return (await ctx.loaders.runnerProjectLinks.load(r.id)).count;
  }

  @FieldResolver(() => CiRunnerJobExecutionStatus, {
    nullable: true,
    description: 'ACTIVE while one of its jobs runs, else IDLE; null where `jobs` is (the caller may not list them).',
  })
  async jobExecutionStatus(@Root() r: Runner, @Ctx() ctx: RequestCtx): Promise<CiRunnerJobExecutionStatus | null> {
    if (!ctx.user || !(await runnerService.canListJobs(ctx, r))) return null;
    const running = await ctx.loaders.runnerJobCount.load({ parentId: r.id, args: { statuses: [JobStatus.RUNNING] } });
    return running ? CiRunnerJobExecutionStatus.ACTIVE : CiRunnerJobExecutionStatus.IDLE;
  }

  @FieldResolver(() => RunnerPermissionsType, {
    description: "What the caller may do with this runner (GitLab's userPermissions; the REST routes' rules).",
  })
  async userPermissions(@Root() r: Runner, @Ctx() ctx: RequestCtx): Promise<RunnerPermissionsType> {
    const admin = policy.isAdmin(ctx.user);
    // Others change and remove specific runners they own; removing needs it enabled in one project at most.
    const owns = !admin && !!ctx.user && !r.isShared && (await ownsRunner(ctx, r.id));
    const projects = owns ? (await ctx.loaders.runnerProjectLinks.load(r.id)).count : 0;
    return {
      readRunner: true,
      updateRunner: admin || owns,
      deleteRunner: admin || (owns && projects <= 1),
      assignRunner: (admin || owns) && !r.isShared,
    };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "The runner's page in the admin area; administrators only (null for others).",
  })
  adminUrl(@Root() r: Runner, @Ctx() ctx: RequestCtx): string | null {
    return policy.isAdmin(ctx.user) ? `${ctx.externalUrl}/admin/runners/${r.id}` : null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "The runner's edit page in the admin area; administrators only (null for others).",
  })
  editAdminUrl(@Root() r: Runner, @Ctx() ctx: RequestCtx): string | null {
    return policy.isAdmin(ctx.user) ? `${ctx.externalUrl}/admin/runners/${r.id}/edit` : null;
  }

  @FieldResolver(() => JobPage, {
    nullable: true,
    description: 'null when the caller may not list the jobs (admins: any runner; others: owned runners).',
  })
  async jobs(@Root() r: Runner, @Args() args: JobListArgs, @Ctx() ctx: RequestCtx): Promise<Page<JobRow> | null> {
    if (!ctx.user || !(await runnerService.canListJobs(ctx, r))) return null;
    return ctx.loaders.runnerJobs.load({ parentId: r.id, args: { ...args } });
  }
}
