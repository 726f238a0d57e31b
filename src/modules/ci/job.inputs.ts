import { ArgsType, Field } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';
import { JobStatus } from './job.type';

/** Filters of a runner's job list (spec 4.6). */
@ArgsType()
export class JobListArgs extends PageArgs {
  @Field(() => JobStatus, { nullable: true, description: 'Only jobs in this status (all when omitted).' })
  status?: JobStatus;
}
