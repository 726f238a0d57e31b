import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import type { Environment } from './environment.entity';
import { environmentCleanup } from './environment-cleanup';
import { EnvironmentType } from './environment.type';

@ObjectType('StaleEnvironmentsStop', { description: 'The outcome of stopping stale environments.' })
export class StaleEnvironmentsStopType {
  @Field(() => String) message!: string;
}

@ObjectType('ReviewAppsDeletion', { description: 'Stopped review apps deleted (or, in a dry run, that would be).' })
export class ReviewAppsDeletionType {
  @Field(() => [EnvironmentType], { description: 'At most `limit` (1000).' })
  @MaxItems(1000)
  scheduledEntries!: Environment[];
  @Field(() => [EnvironmentType], { description: 'Always empty: no environment is protected here.' })
  @MaxItems(1000)
  unprocessableEntries!: Environment[];
}

/** Bulk clean-up of a project's environments (stale ones stopped, stopped review apps deleted). */
@Resolver()
export class EnvironmentCleanupResolver {
  @Mutation(() => StaleEnvironmentsStopType, {
    description: 'Stops the available environments not updated since `before` (between 10 years and 1 week ago).',
  })
  @Allow('user')
  stopStaleEnvironments(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('before', () => String, { description: 'ISO 8601 time.' }) before: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<StaleEnvironmentsStopType> {
    return environmentCleanup.stopStale(ctx, projectId, before);
  }

  @Mutation(() => ReviewAppsDeletionType, {
    description: 'Deletes the stopped environments of the review/ folder created before `before`, oldest first.',
  })
  @Allow('user')
  deleteReviewApps(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('before', () => String, { nullable: true, description: 'ISO 8601 time; default 30 days ago.' })
    before: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 1000; default 100.' }) limit: number | null,
    @Arg('dryRun', () => Boolean, { nullable: true, description: 'Default true: nothing is deleted.' })
    dryRun: boolean | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<ReviewAppsDeletionType> {
    return environmentCleanup.deleteReviewApps(ctx, projectId, { before, limit, dryRun });
  }
}
