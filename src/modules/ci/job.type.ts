import { DatabaseNode, Node } from '../../core/graphql/node';
import { idArgOf } from '../../core/graphql/global-id';
import { Field, Float, ObjectType, registerEnumType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { CostItems } from '../../core/graphql/list-bound';
import { Internal } from '../../core/graphql/internal';
import { StatusActionType } from './job-page.type';

/** Every GitLab job status (Ci::Build::AVAILABLE_STATUSES); the REST filter accepts them all (spec 4.6). */
export enum JobStatus {
  CREATED = 'CREATED',
  PENDING = 'PENDING',
  RUNNING = 'RUNNING',
  SUCCESS = 'SUCCESS',
  FAILED = 'FAILED',
  CANCELED = 'CANCELED',
  SKIPPED = 'SKIPPED',
  MANUAL = 'MANUAL',
}
registerEnumType(JobStatus, { name: 'CiJobStatus' });
export const JOB_STATUS_REST_VALUES = [
  'created',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
] as const;

/** The commit a pipeline builds (GitLab's Commit entity). */
@ObjectType('Commit')
export class CommitType {
  @Field(() => String, { description: 'The full SHA.' }) id!: string;
  @Field(() => String) shortId!: string;
  @Field(() => String) title!: string;
  @Field(() => String) message!: string;
  @Field(() => String) authorName!: string;
  @Field(() => String) authorEmail!: string;
  @Field(() => Date) authoredDate!: Date;
  @Field(() => String) committerName!: string;
  @Field(() => String) committerEmail!: string;
  @Field(() => Date) committedDate!: Date;
  @Field(() => Date, { description: 'GitLab reports the committed date here.' }) createdAt!: Date;
  // A merge may have any number of parents (git sets no maximum): costed high (list-bound.ts).
  @Field(() => [String]) @CostItems() parentIds!: string[];
}

@ObjectType('Pipeline', { implements: Node })
export class PipelineType extends DatabaseNode {
  @Field(() => String) sha!: string;
  @Field(() => String) ref!: string;
  @Field(() => String, { description: 'GitLab pipeline status (running, success, ...).' }) status!: string;
  /** Its project (`Pipeline.project`, job.resolver.ts). */
  projectId!: number;
  /** Who ran it (`Pipeline.user`), null when unknown. */
  userId!: number | null;
  /** GitLab's source code (`ci_pipelines.source`), null when unknown. */
  source!: number | null;
}

/**
 * GitLab's `DetailedStatus` of a job (Gitlab::Ci::Status): the badge a list shows, with its action button.
 * Without `favicon`: this service serves no status icons.
 */
@ObjectType('DetailedStatus', { description: "A job status as GitLab's CI badges show it." })
export class DetailedStatusType {
  @Field(() => String, { description: '`<group>-<job id>`.' }) id!: string;
  @Field(() => String, { description: 'The status in lower case (success, failed, running, ...).' }) group!: string;
  @Field(() => String, { description: 'Icon name (status_success, ...).' }) icon!: string;
  @Field(() => String, { description: 'Short text (Passed, Failed, ...).' }) text!: string;
  @Field(() => String, { description: 'Label (passed, failed, manual action, ...).' }) label!: string;
  @Field(() => String, { description: 'Tooltip text (the label).' }) tooltip!: string;
  @Field(() => String, { description: 'The status name (SUCCESS, FAILED, ...).' }) name!: string;
  @Field(() => Boolean, { description: 'Whether the job has a details page.' }) hasDetails!: boolean;
  @Field(() => String, { nullable: true, description: "Path of the job's page." }) detailsPath!: string | null;
  @Field(() => StatusActionType, {
    nullable: true,
    description:
      "The badge's button (play, retry or cancel the job); null when there is none or the caller may not use it.",
  })
  action!: StatusActionType | null;
}

/** A job as the runner job list shows it; user, commit, pipeline and project resolve through batched loaders. */
@ObjectType('CiJob', { implements: Node })
export class JobType extends DatabaseNode {
  @Field(() => JobStatus) status!: JobStatus;
  // REST's `stage` (a string); GraphQL's `stage` is GitLab's CiStage object (job-page.resolver.ts).
  @Internal()
  @Field(() => String, { description: "The name of the job's stage." })
  stageName!: string;
  @Field(() => String) name!: string;
  @Field(() => String) ref!: string;
  @Field(() => Boolean) tag!: boolean;
  @Field(() => Boolean, { description: 'Whether the job is allowed to fail.' }) allowFailure!: boolean;
  @Field(() => Float, { nullable: true }) coverage!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Seconds from start to finish (or to now while running); null before start.',
  })
  duration!: number | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'Seconds the job waited from its creation until it started (until now while it waits); null once canceled or skipped without starting.',
  })
  queuedDuration!: number | null;
  // As many as the CI system gave the job (GitLab sets no maximum): costed high (list-bound.ts).
  @Field(() => [String], { description: 'The tags a runner must carry to take the job.' })
  @CostItems()
  tags!: string[];
}

export const JobPage = PageType(JobType, 'CiJobConnection');

/** A job id argument: `gid://gitlab/Ci::Build/<n>` or the database id (GitLab's CiBuildID). */
export const JobIdArg = idArgOf('Ci::Build');

/** A job row as read for lists: plain values, foreign keys resolved by loaders. */
export interface JobRow {
  id: number;
  status: JobStatus;
  stageName: string;
  name: string;
  ref: string;
  tag: boolean;
  allowFailure: boolean;
  /** GitLab's `when` (on_success, manual, delayed, …; null reads as on_success). */
  when: string | null;
  retried: boolean | null;
  coverage: number | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  duration: number | null;
  queuedDuration: number | null;
  projectId: number;
  pipelineId: number;
  userId: number | null;
  /** The runner that took the job (null before one did). */
  runnerId: number | null;
  tags: string[];
}
