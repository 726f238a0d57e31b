import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { Reads } from '../../core/graphql/reads';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { Environment } from './environment.entity';
import { environmentService } from './environment.service';
import { EnvironmentPage } from './environment.type';
import { environmentPolicy } from './environment.policy';

export function environmentListLoaders(ctx: RequestCtx) {
  return {
    /** `Project.environments` across the projects of a list: the same list as projectEnvironments, one round trip. */
    projectEnvironmentLists: perParentPages<PageArgs, Environment>((args, ids) =>
      environmentService.listForProjects(ctx, ids, args),
    ),
  };
}

type EnvironmentListLoaders = ReturnType<typeof environmentListLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends EnvironmentListLoaders {}
}

/** A project's environments as its field (GitLab's `Project.environments`), for those who may list them as projectEnvironments. */
@Resolver(() => ProjectType)
export class ProjectEnvironmentsResolver {
  @FieldResolver(() => EnvironmentPage, {
    nullable: true,
    description:
      "The project's environments by id; null when the caller may not list them (Reporter or above, with jobs enabled).",
  })
  @Reads('id', 'jobsEnabled')
  async environments(
    @Root() p: Project,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Environment> | null> {
    const level = ctx.user ? await ctx.loaders.projectLevel.load(p.id) : 0;
    if (!environmentPolicy.canEnvironment(ctx.user, level, p.jobsEnabled, 'read')) return null;
    return ctx.loaders.projectEnvironmentLists.load({ parentId: p.id, args });
  }
}
