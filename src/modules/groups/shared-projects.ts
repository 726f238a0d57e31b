import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevelEnum } from '../access';
import type { Namespace } from '../namespaces';
import { ProjectPage, sharedProjectPagesOfGroups, type Project } from '../projects';
import { GroupType } from './group.type';

/** `Group.sharedProjects` (GitLab's Resolvers::Projects::SharedProjectsResolver). */
@ArgsType()
export class GroupSharedProjectsPageArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Search query, which can be for the project name, a path, or a description.',
  })
  search?: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Sort order of results, `<field_name>_<sort_direction>`: id, name, path, created, updated, latest_activity, stars, storage_size (`id_desc`, `name_asc`, ...). Defaults to `id_desc`; another value orders by id, newest first, as GitLab.',
  })
  sort?: string;

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

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only projects that are not archived (projects are never pending deletion here).',
  })
  active?: boolean;
}

export const sharedProjectLoaders = (ctx: RequestCtx) => ({
  // GitLab's finder sorts by id, newest first, when no sort is given (similarity with a search: not served).
  groupSharedProjectPages: perParentPages<GroupSharedProjectsPageArgs, Project>((args, ids) =>
    sharedProjectPagesOfGroups(ctx, { ...args, sort: args.sort ?? 'id_desc' }, ids),
  ),
});
type SharedProjectLoaders = ReturnType<typeof sharedProjectLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends SharedProjectLoaders {}
}

@Resolver(() => GroupType)
export class SharedProjectsResolver {
  /** The parent is already visible; batched across the groups of a list (one count and one page statement). */
  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description: 'Projects shared with this group that the caller may see; by id, newest first, when sort is omitted.',
  })
  sharedProjects(
    @Root() g: Namespace,
    @Args() args: GroupSharedProjectsPageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Project>> {
    return ctx.loaders.groupSharedProjectPages.load({ parentId: g.id, args: { ...args } });
  }
}
