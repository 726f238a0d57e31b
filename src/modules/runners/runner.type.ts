import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { CostItems } from '../../core/graphql/list-bound';

export enum RunnerAccessLevel {
  NOT_PROTECTED = 'NOT_PROTECTED',
  REF_PROTECTED = 'REF_PROTECTED',
}
registerEnumType(RunnerAccessLevel, {
  name: 'CiRunnerAccessLevel',
  description: 'not_protected: any ref; ref_protected: protected refs only.',
});
export const RUNNER_ACCESS_LEVEL_REST_VALUES = ['not_protected', 'ref_protected'] as const;
/** Stored values (GitLab's enum): 0 not_protected, 1 ref_protected. */
export const ACCESS_LEVEL_VALUE: Record<RunnerAccessLevel, number> = { NOT_PROTECTED: 0, REF_PROTECTED: 1 };
export const accessLevelOf = (v: number): RunnerAccessLevel =>
  v === 1 ? RunnerAccessLevel.REF_PROTECTED : RunnerAccessLevel.NOT_PROTECTED;

export enum RunnerScope {
  ACTIVE = 'ACTIVE',
  PAUSED = 'PAUSED',
  ONLINE = 'ONLINE',
  SPECIFIC = 'SPECIFIC',
  SHARED = 'SHARED',
}
/** Later GitLab's runner status (its GraphQL CiRunnerStatus); computed from the last contact. */
export enum RunnerStatus {
  ONLINE = 'ONLINE',
  OFFLINE = 'OFFLINE',
  STALE = 'STALE',
  NEVER_CONTACTED = 'NEVER_CONTACTED',
}
registerEnumType(RunnerStatus, {
  name: 'CiRunnerStatus',
  description:
    'ONLINE: contacted within the last hour; STALE: last contact (or creation, never contacted) over 3 months ago; NEVER_CONTACTED: not yet, created within 3 months; OFFLINE: the rest.',
});

/**
 * GitLab's CiRunnerType. Runners here are instance-wide (shared) or enabled in projects (specific);
 * there are no group runners, so GROUP_TYPE is accepted and matches none.
 */
export enum CiRunnerType {
  INSTANCE_TYPE = 'INSTANCE_TYPE',
  GROUP_TYPE = 'GROUP_TYPE',
  PROJECT_TYPE = 'PROJECT_TYPE',
}
registerEnumType(CiRunnerType, {
  name: 'CiRunnerType',
  description:
    'INSTANCE_TYPE: shared runners; PROJECT_TYPE: specific runners (enabled in projects); GROUP_TYPE: none exist here.',
});

/** GitLab's CiRunnerSort. A runner that never made contact sorts as the oldest contact. */
export enum CiRunnerSort {
  CONTACTED_ASC = 'CONTACTED_ASC',
  CONTACTED_DESC = 'CONTACTED_DESC',
  CREATED_ASC = 'CREATED_ASC',
  CREATED_DESC = 'CREATED_DESC',
}
registerEnumType(CiRunnerSort, {
  name: 'CiRunnerSort',
  description:
    'Order of a runner list (ties by id in the same direction); never-contacted runners come first with CONTACTED_ASC, last with CONTACTED_DESC. Without sort: by id, ascending.',
});

registerEnumType(RunnerScope, {
  name: 'RunnerScope',
  description: 'online: contacted within the last hour; paused: not active.',
});

/** What `runners` (the caller's own specific runners) accepts: no specific/shared split there. */
export enum OwnRunnerScope {
  ACTIVE = 'ACTIVE',
  PAUSED = 'PAUSED',
  ONLINE = 'ONLINE',
}
registerEnumType(OwnRunnerScope, {
  name: 'OwnRunnerScope',
  description: 'online: contacted within the last hour; paused: not active.',
});

/** A view over the Runner entity; computed and conditional fields resolve in runner.resolver.ts. */
@ObjectType('CiRunner', { implements: Node })
export class RunnerType extends DatabaseNode {
  @Field(() => String) description!: string;
  @Field(() => Boolean) active!: boolean;
  @Field(() => Boolean) isShared!: boolean;
  @Field(() => String, { nullable: true }) name!: string | null;
  // GitLab 10.3 sets no maximum on a runner's tags and REST serves them all: costed high (list-bound.ts).
  @Field(() => [String]) @CostItems() tagList!: string[];
  @Field(() => Boolean) runUntagged!: boolean;
  @Field(() => Boolean) locked!: boolean;
  @Field(() => String, { nullable: true }) version!: string | null;
  @Field(() => String, { nullable: true }) revision!: string | null;
  @Field(() => String, { nullable: true }) platform!: string | null;
  @Field(() => String, { nullable: true }) architecture!: string | null;
  @Field(() => Date, { nullable: true }) contactedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'Timestamp of creation of this runner.' }) createdAt!: Date;
  @Field(() => Int, {
    nullable: true,
    description: 'Maximum timeout (in seconds) for jobs processed by the runner; null when not set.',
  })
  maximumTimeout!: number | null;
}

export const RunnerPage = PageType(RunnerType, 'CiRunnerConnection');

@ObjectType('RunnerRegistration', {
  description: 'What registerRunner answers: the new runner id and its token (shown once).',
  implements: Node,
})
export class RunnerRegistrationType extends DatabaseNode {
  @Field(() => String) token!: string;
  @Field(() => Date, { nullable: true, description: 'Null: runner tokens do not expire here.' })
  tokenExpiresAt?: Date | null;
}

@ObjectType('RunnerChange', {
  description: 'A runner that was changed or removed, as it is when the change is delivered.',
})
export class RunnerChangeType {
  /**
   * Not `id`: a change is no object of its own, and a field `id` holding the runner's gid would make
   * normalizing caches (Apollo, Relay) merge this record into the runner's.
   */
  @Field(() => ID, {
    description:
      'Global id of the runner (also when it was removed): `CiRunner.id`, e.g. to find the row a client shows.',
  })
  runnerId!: string;
  @Field(() => Int, { description: 'Database id of the runner (also when it was removed): `Runner.databaseId`.' })
  databaseId!: number;
  @Field(() => RunnerType, { nullable: true, description: 'null when the runner no longer exists.' })
  runner!: RunnerType | null;
  @Field(() => Boolean, { description: 'The runner was removed.' }) deleted!: boolean;
}

/** GitLab's `CiRunnerJobExecutionStatus`: whether the runner is running a job now. */
export enum CiRunnerJobExecutionStatus {
  IDLE = 'IDLE',
  ACTIVE = 'ACTIVE',
}
registerEnumType(CiRunnerJobExecutionStatus, {
  name: 'CiRunnerJobExecutionStatus',
  description: 'ACTIVE: at least one of its jobs is running; IDLE: none.',
});

/** GitLab's `RunnerPermissions`: what the caller may do with the runner. */
@ObjectType('RunnerPermissions', { description: 'What the current user may do with a runner.' })
export class RunnerPermissionsType {
  @Field(() => Boolean, { description: 'May read the runner.' }) readRunner!: boolean;
  @Field(() => Boolean, { description: 'May change the runner (runnerUpdate).' }) updateRunner!: boolean;
  @Field(() => Boolean, { description: 'May remove the runner (runnerDelete).' }) deleteRunner!: boolean;
  @Field(() => Boolean, { description: 'May enable the runner in other projects (runnerAssignToProject).' })
  assignRunner!: boolean;
}

/** Argument type of a Ci::Runner id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const RunnerIdArg = idArgOf('Ci::Runner');
