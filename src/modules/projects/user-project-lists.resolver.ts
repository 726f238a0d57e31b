import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPagesByKey } from '../../core/pagination/list-query';
import { PageArgs, makePage, normalizePage, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevelEnum, ProjectSort, projectSortString } from '../access';
import { ownedNamespaceIds } from '../namespaces';
import type { User } from '../users';
import { UserType } from '../users';
import type { Project } from './project.entity';
import { projectService } from './project.service';
import { ProjectPage } from './project.type';

/** GitLab's arguments of `User.starredProjects` and `User.contributedProjects`, also those of our `User.personalProjects`. */
@ArgsType()
export class UserProjectListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Search query.' })
  search?: string;

  @Field(() => ProjectSort, {
    nullable: true,
    defaultValue: ProjectSort.NAME_ASC,
    description: 'List projects by sort order (GitLab: by name when omitted).',
  })
  sort?: ProjectSort;

  @Field(() => AccessLevelEnum, {
    nullable: true,
    description: 'Return only projects where the caller has at least the specified access level.',
  })
  minAccessLevel?: AccessLevelEnum;

  @Field(() => String, {
    nullable: true,
    description:
      'Filter projects by programming language name. No repository is kept here, so no project has a detected language: any name matches none.',
  })
  programmingLanguageName?: string;
}

/** The stars of many users with the same arguments, one page each, in one round trip (GitLab's StarredProjectsFinder). */
async function starredPages(ctx: RequestCtx, args: UserProjectListArgs, userIds: number[]) {
  const sort = projectSortString(args.sort ?? ProjectSort.NAME_ASC);
  const query = await projectService.listQuery(ctx, { ...args, sort });
  const key = { match: 'p.id = any(array(select project_id from users_star_projects where user_id = page_keys.k))' };
  return offsetPagesByKey(ctx.em, query, key, userIds, args);
}

/**
 * The personal projects of many users with the same arguments, one page each, in one round trip: the
 * projects in each user's personal namespace (the one they own) that the caller may see (GitLab's
 * PersonalProjectsFinder).
 */
async function personalPages(ctx: RequestCtx, args: UserProjectListArgs, userIds: number[]) {
  const sort = projectSortString(args.sort ?? ProjectSort.NAME_ASC);
  const query = await projectService.listQuery(ctx, { ...args, sort });
  const key = { match: `p.namespace_id = any(array(${ownedNamespaceIds('page_keys.k')}))` };
  return offsetPagesByKey(ctx.em, query, key, userIds, args);
}

export function userProjectListLoaders(ctx: RequestCtx) {
  return {
    userStarredProjectLists: perParentPages<UserProjectListArgs, Project>((args, ids) => starredPages(ctx, args, ids)),
    userPersonalProjectLists: perParentPages<UserProjectListArgs, Project>((args, ids) =>
      personalPages(ctx, args, ids),
    ),
  };
}

type UserProjectListLoaders = ReturnType<typeof userProjectListLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends UserProjectListLoaders {}
}

@Resolver(() => UserType)
export class UserProjectListsResolver {
  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description:
      'Projects the user starred that the caller may see, by name unless sort says otherwise (batched across the users of a list).',
  })
  starredProjects(
    @Root() user: User,
    @Args() args: UserProjectListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Project>> {
    return ctx.loaders.userStarredProjectLists.load({ parentId: user.id, args });
  }

  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description:
      "Projects in the user's personal namespace that the caller may see, by name unless sort says otherwise (ours: GitLab's GraphQL has no such list; its `User.namespace { projects }` is for the user and administrators only; batched across the users of a list).",
  })
  personalProjects(
    @Root() user: User,
    @Args() args: UserProjectListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Project>> {
    return ctx.loaders.userPersonalProjectLists.load({ parentId: user.id, args });
  }

  // GitLab's ContributedProjectsFinder reads contribution events (pushes, merge requests, issues, comments):
  // none of those features is served here, so no user has contributed to a project (GitLab: an empty list).
  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description:
      'Projects the user contributed to (pushes, merge requests, issues, comments). None of those is served here, so the list is empty, as GitLab for a user without contributions.',
  })
  contributedProjects(@Root() _user: User, @Args() args: UserProjectListArgs): Page<Project> {
    return makePage([], 0, normalizePage(args));
  }
}
