import { Args, ArgsType, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, PageType, type Page } from '../../core/pagination/page';
import type { User } from './user.entity';
import { listActivities } from './user-activity';

/** GitLab's UserActivity: a user and the last day they were active. */
@ObjectType('UserActivity')
export class UserActivityType {
  @Field(() => String) username!: string;
  @Field(() => String, { description: 'YYYY-MM-DD' }) lastActivityOn!: string;
}

export const UserActivityPage = PageType(UserActivityType, 'UserActivityConnection');

@ArgsType()
export class UserActivitiesArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'A date (YYYY-MM-DD) or date-time; default six months ago.' })
  from?: string;
}

@Resolver()
export class UserActivityResolver {
  // Admin is checked in the service after `from` (GitLab 10.3's order: 400 before 403).
  @Query(() => UserActivityPage, { description: 'Administrators only: users active on or after a date, by day.' })
  @Allow('user')
  userActivities(@Args() args: UserActivitiesArgs, @Ctx() ctx: RequestCtx): Promise<Page<User>> {
    return listActivities(ctx, args);
  }
}
