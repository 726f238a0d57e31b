import type { GraphQLResolveInfo } from 'graphql';
import { Args, ArgsType, Ctx, Field, Info, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { policy } from '../access';
import { preloadProjectRelations } from './project-preload';
import type { Project } from './project.entity';
import { ProjectsArgs } from './project.inputs';
import { projectService } from './project.service';
import { ProjectPage } from './project.type';

@ArgsType()
export class AdminProjectsArgs extends ProjectsArgs {
  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description:
      'Only projects whose last repository check failed: no repository is kept (nor checked) here, so true matches none.',
  })
  lastRepositoryCheckFailed?: boolean;
}

@Resolver()
export class AdminProjectsResolver {
  /** GitLab's Admin > Projects list: every project, with the projects list's filters; administrators only. */
  @Query(() => ProjectPage, {
    nullable: true,
    description:
      'Every project, with the projects list filters (Admin area); null for callers who are not administrators.',
  })
  @Allow('anonymous')
  async adminProjects(
    @Args() args: AdminProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project> | null> {
    if (!policy.isAdmin(ctx.user)) return null;
    const page = await projectService.list(ctx, args.lastRepositoryCheckFailed ? { ...args, ids: [] } : args);
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }
}
