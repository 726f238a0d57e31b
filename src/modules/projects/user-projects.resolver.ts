import type { GraphQLResolveInfo } from 'graphql';
import { ArgsType, Args, Ctx, Field, ID, Info, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { CustomAttributeFilter } from '../custom-attributes';
import { userService } from '../users';
import { preloadProjectRelations } from './project-preload';
import type { Project } from './project.entity';
import { ProjectFilterArgs } from './project.inputs';
import { projectService } from './project.service';
import { ProjectPage } from './project.type';

/** GET /users/:user_id/projects (GitLab files it in its projects API): GitLab 10.3's collection_params (the projects list's filters, order and pages). */
@ArgsType()
export class UserProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'The user: an id or a username.' })
  userId!: string;

  @Field(() => [CustomAttributeFilter], { nullable: true, description: 'Administrators only; ignored for others.' })
  customAttributes?: CustomAttributeFilter[];
}

@Resolver()
export class UserProjectsResolver {
  /**
   * A user's personal projects that the caller may see (GitLab 10.3's PersonalProjectsFinder).
   * As there, `owned` and `membership` are accepted and have no effect on this list: the finder of a
   * user's projects starts from that user's namespace, not from the caller's projects. REST's
   * GET /users/:user_id/projects: internal view only; GraphQL clients read `User.personalProjects`.
   */
  @Internal()
  @Query(() => ProjectPage, { description: "A user's personal projects visible to the caller." })
  @Allow('anonymous')
  async userProjects(
    @Args() args: UserProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const user = await userService.findByIdOrUsername(ctx, args.userId);
    const page = await projectService.list(
      ctx,
      { ...args, owned: undefined, membership: undefined },
      { namespaceId: user.namespaceId ?? 0 },
    );
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }

  /** Later GitLab's StarredProjectsFinder: the projects a user starred that the caller may see. */
  @Internal()
  @Query(() => ProjectPage, { description: 'The projects a user starred, visible to the caller.' })
  @Allow('anonymous')
  async userStarredProjects(
    @Args() args: UserProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const user = await userService.findByIdOrUsername(ctx, args.userId);
    const page = await projectService.list(ctx, args, { starredBy: user.id });
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }
}
