import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { offsetPagesByKey } from '../../core/pagination/list-query';
import { PageArgs, makePage, normalizePage, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { AccessLevelEnum } from '../access';
import type { Project } from './project.entity';
import { projectService } from './project.service';
import { ProjectPage, ProjectType } from './project.type';

/** GitLab's `Project.visibleForks(minimumAccessLevel)` (app/graphql/types/project_type.rb, `visible_forks`). */
@ArgsType()
export class VisibleForksArgs extends PageArgs {
  @Field(() => AccessLevelEnum, {
    nullable: true,
    description:
      'Minimum access level of the caller in the forks (none for an anonymous caller); without it, every fork the caller may see.',
  })
  minimumAccessLevel?: AccessLevelEnum;
}

/**
 * The forks of many projects with one argument set, one page each in one round trip: the projects
 * whose `forked_from_project_id` is the parent (projects_forked_from_idx) that the caller may see, as
 * the projects list filters them; newest first, as GitLab's connection orders an unordered relation.
 */
async function forkPages(ctx: RequestCtx, args: VisibleForksArgs, projectIds: number[]) {
  if (args.minimumAccessLevel !== undefined && args.minimumAccessLevel !== null && !ctx.user) {
    const empty = makePage<Project>([], 0, normalizePage(args));
    return new Map(projectIds.map((id) => [id, empty]));
  }
  const query = await projectService.listQuery(ctx, {
    sort: 'created_desc',
    minAccessLevel: args.minimumAccessLevel ?? undefined,
  });
  return offsetPagesByKey(ctx.em, query, 'p.forked_from_project_id', projectIds, args);
}

export function visibleForkLoaders(ctx: RequestCtx) {
  return {
    projectVisibleForks: perParentPages<VisibleForksArgs, Project>((args, ids) => forkPages(ctx, args, ids)),
  };
}
type VisibleForkLoaders = ReturnType<typeof visibleForkLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends VisibleForkLoaders {}
}

@Resolver(() => ProjectType)
export class ProjectVisibleForksResolver {
  /** The parent is already visible to the caller; batched across the projects of a list. */
  @FieldResolver(() => ProjectPage, {
    nullable: true,
    description: 'Visible forks of the project, newest first (GitLab: an experiment since 15.10).',
  })
  visibleForks(@Root() p: Project, @Args() args: VisibleForksArgs, @Ctx() ctx: RequestCtx): Promise<Page<Project>> {
    return ctx.loaders.projectVisibleForks.load({ parentId: p.id, args });
  }
}
