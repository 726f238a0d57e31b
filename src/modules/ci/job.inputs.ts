import { ArgsType, Field } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';
import { JobStatus } from './job.type';
import { SortDirection } from '../access';
import { JobSource } from './job-page.type';

/** Filters of a runner's job list (spec 4.6). */
@ArgsType()
export class JobListArgs extends PageArgs {
  @Field(() => JobStatus, { nullable: true, description: 'Only jobs in this status (all when omitted).' })
  status?: JobStatus;

  @Field(() => SortDirection, {
    nullable: true,
    description: 'By id; default ASC (DESC: newest first, as a dashboard shows them).',
  })
  sort?: SortDirection;
}

/**
 * GitLab's `Project.jobs` filters (Resolvers::ProjectJobsResolver) next to the runner list's. Newest first
 * unless `sort: ASC` (GitLab orders a project's jobs by id descending).
 */
@ArgsType()
export class ProjectJobListArgs extends JobListArgs {
  @Field(() => [JobStatus], { nullable: true, description: 'Filter jobs by status (any of these).' })
  statuses?: JobStatus[] | null;

  @Field(() => [JobSource], {
    nullable: true,
    description: "Filter jobs by source: their pipeline's source (UNKNOWN: a pipeline whose source is not known).",
  })
  sources?: JobSource[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Filter jobs by name: names containing this text, in any case.',
  })
  name?: string | null;
}

/** GitLab's `Pipeline.jobs(statuses)`; newest first, as REST's list of a pipeline's jobs. */
@ArgsType()
export class PipelineJobListArgs extends PageArgs {
  @Field(() => [JobStatus], { nullable: true, description: 'Filter jobs by status (any of these).' })
  statuses?: JobStatus[] | null;
}
