import { Arg, Args, Ctx, FieldResolver, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { PageArgs, PageType, pageOfList, type Page } from '../../core/pagination/page';
import { JobStatus } from '../ci';
import { runnerStatus } from './runner-list.query';
import type { Runner } from './runner.entity';
import { CiRunnerJobExecutionStatus, RunnerStatus, RunnerType } from './runner.type';
import { runnerService } from './runner.service';

/**
 * GitLab 16 moved a runner's contact details (version, revision, platform, architecture, IP address,
 * last contact) to its runner managers (`ci_runner_machines`): one per machine running the runner's
 * token, created at its first contact, and its migration made one manager per existing runner from the
 * runner's own columns. Here a runner's registration and contacts carry those details on the runner
 * itself, so a runner that made contact has exactly that one manager: its id is the runner's
 * (`gid://gitlab/Ci::RunnerManager/<runner id>`), its system id GitLab's `<legacy>` (the id GitLab gives
 * a runner that sends no `system_id`, as 10.3's runners do not), its details the runner's. A runner that
 * never made contact has none.
 */
export const LEGACY_SYSTEM_ID = '<legacy>';

/** A runner's one manager (the runner row it reads; `id` is the runner's, for the gid). */
export interface RunnerManagerRow {
  id: number;
  runner: Runner;
}

/** The manager of a runner that made contact, else null. */
export const managerOf = (runner: Runner): RunnerManagerRow | null =>
  runner.contactedAt ? { id: runner.id, runner } : null;

@ObjectType('CiRunnerManager', {
  implements: Node,
  description:
    "A machine running a runner's token (GitLab's runner manager). Here: the runner's own contact details, for a runner that made contact.",
})
export class RunnerManagerType extends DatabaseNode {}

export const RunnerManagerPage = PageType(RunnerManagerType, 'CiRunnerManagerConnection');

@Resolver(() => RunnerManagerType)
export class RunnerManagerResolver {
  @FieldResolver(() => String, {
    description: "System ID of the manager: `<legacy>`, GitLab's for a runner that sends none (10.3's runners).",
  })
  systemId(): string {
    return LEGACY_SYSTEM_ID;
  }

  @FieldResolver(() => RunnerStatus, { description: "Status of the manager: the runner's, from its last contact." })
  status(@Root() m: RunnerManagerRow, @Ctx() ctx: RequestCtx): RunnerStatus {
    return RunnerStatus[runnerStatus(m.runner, ctx.clock.now())];
  }

  @FieldResolver(() => String, { nullable: true, description: 'Version of the runner (as it registered).' })
  version(@Root() m: RunnerManagerRow): string | null {
    return m.runner.version;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Revision of the runner (as it registered).' })
  revision(@Root() m: RunnerManagerRow): string | null {
    return m.runner.revision;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Platform the runner reported.' })
  platformName(@Root() m: RunnerManagerRow): string | null {
    return m.runner.platform;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Architecture the runner reported.' })
  architectureName(@Root() m: RunnerManagerRow): string | null {
    return m.runner.architecture;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Executor the runner advertised: null, registration here does not record it.',
  })
  executorName(): null {
    return null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'IP address the runner contacted from: null, contacts here do not record it.',
  })
  ipAddress(): null {
    return null;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'Timestamp of the last contact from the runner.' })
  contactedAt(@Root() m: RunnerManagerRow): Date | null {
    return m.runner.contactedAt;
  }

  @FieldResolver(() => RunnerType, { nullable: true, description: 'The runner this manager runs.' })
  runner(@Root() m: RunnerManagerRow): Runner {
    return m.runner;
  }

  @FieldResolver(() => CiRunnerJobExecutionStatus, {
    nullable: true,
    description: "The runner's: ACTIVE while one of its jobs runs, else IDLE; null where the runner's `jobs` is.",
  })
  async jobExecutionStatus(
    @Root() m: RunnerManagerRow,
    @Ctx() ctx: RequestCtx,
  ): Promise<CiRunnerJobExecutionStatus | null> {
    if (!ctx.user || !(await runnerService.canListJobs(ctx, m.runner))) return null;
    const running = await ctx.loaders.runnerJobCount.load({
      parentId: m.runner.id,
      args: { statuses: [JobStatus.RUNNING] },
    });
    return running ? CiRunnerJobExecutionStatus.ACTIVE : CiRunnerJobExecutionStatus.IDLE;
  }
}

@Resolver(() => RunnerType)
export class RunnerManagersResolver {
  @FieldResolver(() => RunnerManagerPage, {
    nullable: true,
    description:
      'Runner managers of the runner: the one a runner has once it made contact (its own registration details), none before.',
  })
  managers(
    @Root() r: Runner,
    @Args() args: PageArgs,
    @Arg('systemId', () => String, { nullable: true, description: 'Only the manager with this system ID.' })
    systemId: string | undefined,
    @Arg('status', () => RunnerStatus, { nullable: true, description: 'Only managers in this status.' })
    status: RunnerStatus | undefined,
    @Ctx() ctx: RequestCtx,
  ): Page<RunnerManagerRow> {
    const m = managerOf(r);
    const keep =
      m !== null &&
      (systemId == null || systemId === LEGACY_SYSTEM_ID) &&
      (status == null || runnerStatus(r, ctx.clock.now()) === status);
    return pageOfList(keep ? [m] : [], args);
  }
}
