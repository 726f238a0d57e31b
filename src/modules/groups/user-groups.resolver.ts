import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root, registerEnumType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevel, groupIdsOfMemberAtLeast, policy } from '../access';
import type { Namespace } from '../namespaces';
import type { User } from '../users';
import { UserType } from '../users';
import { listGroupsBatched } from './group-list.query';
import { GroupPage } from './group.type';

/** GitLab's `GroupPermission`: which of a user's groups a picker wants. */
export enum GroupPermission {
  CREATE_PROJECTS = 'CREATE_PROJECTS',
  TRANSFER_PROJECTS = 'TRANSFER_PROJECTS',
}
registerEnumType(GroupPermission, {
  name: 'GroupPermission',
  description: "User permission on groups: the groups of a user's memberships that allow it.",
  valuesConfig: {
    CREATE_PROJECTS: { description: 'Groups where the user can create projects (Developer or above).' },
    TRANSFER_PROJECTS: { description: 'Groups where the user can transfer projects to (Maintainer or above).' },
  },
});

@ArgsType()
export class UserGroupsArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Search by group name or path.' })
  search?: string;

  @Field(() => GroupPermission, {
    nullable: true,
    description: 'Filter by permissions the user has on groups (all the groups of the user when omitted).',
  })
  permissionScope?: GroupPermission;
}

// GitLab 10.3's default project_creation_level lets Developers create projects; moving one in takes Maintainer (Master).
const LEVEL_OF: Record<GroupPermission, number> = {
  CREATE_PROJECTS: AccessLevel.DEVELOPER,
  TRANSFER_PROJECTS: AccessLevel.MASTER,
};

/**
 * The groups of many users at once (Groups::UserGroupsFinder): groups where the user is a member at the
 * level or above, and their subgroups (traversal_ids GIN), by name; one count and one page statement.
 */
function userGroupPages(ctx: RequestCtx, args: UserGroupsArgs, userIds: number[]) {
  const level = args.permissionScope ? LEVEL_OF[args.permissionScope] : AccessLevel.GUEST;
  const match = `n.traversal_ids && array(${groupIdsOfMemberAtLeast('page_keys.k', level)})`;
  return listGroupsBatched(ctx, { search: args.search }, { match }, userIds, args);
}

export function userGroupLoaders(ctx: RequestCtx) {
  return {
    userGroupLists: perParentPages<UserGroupsArgs, Namespace>((args, ids) => userGroupPages(ctx, args, ids)),
  };
}

type UserGroupLoaders = ReturnType<typeof userGroupLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserGroupLoaders {}
}

@Resolver(() => UserType)
export class UserGroupsResolver {
  @FieldResolver(() => GroupPage, {
    nullable: true,
    description:
      "The user's groups (memberships and their subgroups), by name; null unless the caller is the user or an administrator.",
  })
  groups(@Root() user: User, @Args() args: UserGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> | null {
    // GitLab's read_user_groups: the user themself or an administrator.
    if (!ctx.user || (Number(ctx.user.id) !== user.id && !policy.isAdmin(ctx.user))) return null;
    return ctx.loaders.userGroupLists.load({ parentId: user.id, args });
  }
}
