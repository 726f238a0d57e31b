import { ArgsType, Field } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';
import { JobStatus } from './job.type';
import { SortDirection } from '../access';

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
