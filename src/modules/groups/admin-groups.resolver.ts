import { Args, ArgsType, Ctx, Field, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { policy } from '../access';
import type { Namespace } from '../namespaces';
import { gitlabGroupOrder } from './group-list.query';
import { groupService } from './group.service';
import { GroupInterfacePage } from './group.type';

/** GitLab's `adminGroups` arguments (Resolvers::Namespaces::BaseGroupsResolver), the ones served here. */
@ArgsType()
export class AdminGroupsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Search query for group name or path.' })
  search?: string;

  @Field(() => String, {
    nullable: true,
    defaultValue: 'name_asc',
    description:
      "Sort order of results, GitLab's `<field_name>_<sort_direction>`: name, path, id, created (created_at), updated (updated_at) (`updated_at_desc`, `name_asc`, ...). Another value orders by id, newest first, as GitLab.",
  })
  sort?: string;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'Every group either way: administrators see every group.',
  })
  allAvailable?: boolean;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'true: groups not pending deletion; false: only groups pending deletion. Groups are deleted at once here, so that is every group or none.',
  })
  active?: boolean;

  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'Only include top-level groups.' })
  topLevelOnly?: boolean;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Only include groups where the caller has the Owner role.',
  })
  ownedOnly?: boolean;
}

@Resolver()
export class AdminGroupsResolver {
  /** GitLab's Admin > Groups list: every group, through GroupInterface; administrators only. */
  @Query(() => GroupInterfacePage, {
    nullable: true,
    description: 'Every group, with the groups list filters (Admin area); null for callers who are not administrators.',
  })
  @Allow('anonymous')
  adminGroups(@Args() args: AdminGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> | null {
    if (!policy.isAdmin(ctx.user)) return null;
    const { sort, ownedOnly, ...rest } = args;
    return groupService.list(ctx, { ...rest, allAvailable: true, owned: ownedOnly }, gitlabGroupOrder(sort));
  }
}
