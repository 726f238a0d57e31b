import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { directMemberships } from '../access';
import { joinNamespace } from '../namespaces';
import { groupVisibility, joinProject, projectVisibility } from '../projects';
import type { User } from '../users';
import { joinUser, UserType } from '../users';
import { COLUMNS, view, type Row, type SourceKind } from './member-list.query';
import { MemberPage, type MemberType } from './member.type';

/**
 * GitLab's `User.groupMemberships` / `User.projectMemberships` (types/user_interface.rb: the user's
 * `group_members` / `project_members`) of many users with one argument set, one page each in one round
 * trip: the user's direct memberships whose group or project the caller may read (GitLab authorizes each
 * node: `read_group` in GroupMemberType, `read_project` in ProjectMemberType), expired ones included as
 * GitLab lists them until its worker removes them. Newest membership first: GitLab's keyset connection
 * orders an unordered relation by id, descending.
 */
async function membershipPages(
  ctx: RequestCtx,
  kind: SourceKind,
  args: PageArgs,
  userIds: number[],
): Promise<Map<number, Page<MemberType>>> {
  const source = kind === 'group' ? joinNamespace('m.source_id', 's') : joinProject('m.source_id', 's');
  const visible = kind === 'group' ? await groupVisibility(ctx, 's') : await projectVisibility(ctx, 's');
  const query: ListQuery<MemberType> = {
    select: COLUMNS,
    from: `${directMemberships(kind)} m ${joinUser('m.user_id')} ${source}`,
    where: [visible],
    params: [],
    orderBy: 'm.id',
    dir: 'desc',
    id: 'm.id',
    map: (r) => view(ctx, r as Row),
  };
  return offsetPagesByKey(ctx.em, query, 'm.user_id', userIds, args);
}

export function userMembershipListLoaders(ctx: RequestCtx) {
  return {
    userGroupMemberships: perParentPages<PageArgs, MemberType>((args, ids) => membershipPages(ctx, 'group', args, ids)),
    userProjectMemberships: perParentPages<PageArgs, MemberType>((args, ids) =>
      membershipPages(ctx, 'project', args, ids),
    ),
  };
}
type UserMembershipListLoaders = ReturnType<typeof userMembershipListLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserMembershipListLoaders {}
}

/** The user is already visible to the caller; batched across the users of a list. */
@Resolver(() => UserType)
export class UserMembershipListsResolver {
  @FieldResolver(() => MemberPage, {
    nullable: true,
    description:
      "Group memberships of the user (GitLab's field; our `Member` stands for GitLab's `GroupMember`): those of groups the caller may read, newest first.",
  })
  groupMemberships(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return ctx.loaders.userGroupMemberships.load({ parentId: u.id, args });
  }

  @FieldResolver(() => MemberPage, {
    nullable: true,
    description:
      "Project memberships of the user (GitLab's field; our `Member` stands for GitLab's `ProjectMember`): those of projects the caller may read, newest first.",
  })
  projectMemberships(@Root() u: User, @Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return ctx.loaders.userProjectMemberships.load({ parentId: u.id, args });
  }
}
