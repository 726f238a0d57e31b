import { Args, ArgsType, Ctx, Field, ID, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { requireUser } from '../../core/auth/guards';
import type { RequestCtx } from '../../core/context/request-ctx';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { PageArgs, type Page } from '../../core/pagination/page';
import { AccessLevel, policy } from '../access';
import { groupService } from '../groups';
import { checkScope, listRunners } from './runner-list.query';
import type { Runner } from './runner.entity';
import { CiRunnerType, RunnerPage, RunnerStatus } from './runner.type';

/** GET /groups/:id/runners (later GitLab's filter_params; python-gitlab also sends `scope`). */
@ArgsType()
export class GroupRunnersArgs extends PageArgs {
  @Field(() => ID, { description: 'Group id, full path or global id.' }) groupId!: string;
  @Field(() => CiRunnerType, { nullable: true, description: 'Only runners of this type.' }) type?: CiRunnerType;
  @Field(() => RunnerStatus, { nullable: true }) status?: RunnerStatus;
  @Field(() => Boolean, { nullable: true, description: 'Only paused (true) or active (false) runners.' })
  paused?: boolean;
  @Field(() => [String], { nullable: true, description: 'Runners carrying all these tags.' }) tagList?: string[];
  @Field(() => String, { nullable: true, description: 'active, paused, online, specific or shared.' }) scope?: string;
}

/**
 * The runners available to a group (GitLab's Ci::Runner.group_or_instance_wide): the group runners of
 * the group and its ancestors, plus the instance runners. Runners here are instance (shared) or project
 * runners, and groups take shared runners, so the list is the shared runners, filtered and ordered by id as
 * the other runner lists. GitLab's read_group_runners: Master or above (else 403); a group the caller may
 * not see is 404.
 */
async function list(ctx: RequestCtx, args: GroupRunnersArgs): Promise<Page<Runner>> {
  const user = requireUser(ctx);
  const group = await groupService.findVisible(ctx, args.groupId);
  if (!policy.atLeast(user, await ctx.loaders.groupLevel.load(group.id), AccessLevel.MASTER))
    throw new ForbiddenError();
  const scope = checkScope(args.scope, ['active', 'paused', 'online', 'specific', 'shared']);
  const where = args.paused == null ? 'r.is_shared' : `r.is_shared and ${args.paused ? 'not ' : ''}r.active`;
  return listRunners(ctx, where, [], scope, args);
}

@Resolver()
export class GroupRunnersResolver {
  /** REST's GET /groups/:id/runners: internal view only; GraphQL clients read `Group.runners`. */
  @Internal()
  @Query(() => RunnerPage, {
    description: 'The runners available to a group: its, its ancestors’ and the shared ones.',
  })
  @Allow('user')
  groupRunners(@Args() args: GroupRunnersArgs, @Ctx() ctx: RequestCtx): Promise<Page<Runner>> {
    return list(ctx, args);
  }
}
