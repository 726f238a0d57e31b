import { Internal } from '../../core/graphql/internal';
import { UserIdArg } from '../users';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, ArgsType, Ctx, Field, ID, Info, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import type { User } from '../users';
import { UserPage } from '../users';
import { preloadProjectRelations } from './project-preload';
import { projectForkService } from './project-fork.service';
import { projectTeamService } from './project-team.service';
import type { Project } from './project.entity';
import { CreateProjectInput, ProjectFilterArgs } from './project.inputs';
import { ProjectPage, ProjectType } from './project.type';

/** GET /projects/:id/forks: the projects list's filters, order and pages. */
@ArgsType()
export class ProjectForksArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'The forked project: an id or a full path.' })
  id!: string;
}

/** GET /projects/:id/users. */
@ArgsType()
export class ProjectUsersArgs extends PageArgs {
  @Field(() => ID, { description: 'The project: an id or a full path.' })
  id!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Name or username (words of 3 or more characters match substrings), or the exact e-mail.',
  })
  search?: string;
}

@Resolver()
export class ProjectForkResolver {
  /** REST's GET /projects/:id/forks: internal view only; GraphQL clients read `Project.visibleForks`. */
  @Internal()
  @Query(() => ProjectPage, { description: 'The forks of a project that the caller may see.' })
  @Allow('anonymous')
  async projectForks(
    @Args() args: ProjectForksArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const page = await projectForkService.forks(ctx, args.id, args);
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }

  /**
   * REST's GET /projects/:id/users: internal view only. GraphQL clients read GitLab's
   * `Project.projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS]) { nodes { user } }` (one entry
   * per user, the personal namespace's owner a direct member) or `Project.autocompleteUsers(search)`.
   */
  @Internal()
  @Query(() => UserPage, {
    description:
      'The users with access to a project: members, members of its groups and of the groups it is shared with.',
  })
  @Allow('anonymous')
  projectUsers(@Args() args: ProjectUsersArgs, @Ctx() ctx: RequestCtx): Promise<Page<User>> {
    return projectTeamService.users(ctx, args.id, args);
  }

  @Mutation(() => ProjectType, {
    description:
      "Forks a project into the caller's namespace or `namespace` (an id, path or name). No repository is copied.",
  })
  @Allow('user')
  forkProject(
    @Arg('id', () => ID) id: string,
    @Arg('namespace', () => String, { nullable: true, description: 'Target namespace: an id, a path or a name.' })
    namespace: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return projectForkService.fork(ctx, id, namespace);
  }

  // Admin is checked in the service, after the parameters (GitLab 10.3's `authenticated_as_admin!` in the endpoint).
  @Mutation(() => ProjectType, {
    description: 'Administrators only: marks a project as a fork of another (CONFLICT when it already is a fork).',
  })
  @Allow('user')
  linkProjectFork(
    @Arg('id', () => ID) id: string,
    @Arg('forkedFromId', () => ID) forkedFromId: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return projectForkService.link(ctx, id, forkedFromId);
  }

  @Mutation(() => Boolean, {
    description: 'Removes the fork relation (Owner or administrator); false when the project is no fork.',
  })
  @Allow('user')
  @PayloadMutation({ field: 'changed' })
  unlinkProjectFork(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return projectForkService.unlink(ctx, id);
  }

  @Mutation(() => ProjectType, {
    description:
      'Administrators only: creates a project as another user (in their namespace by default, within their projects_limit).',
  })
  @Allow('user')
  createProjectForUser(
    @Arg('userId', () => UserIdArg) userId: number,
    @Arg('input', () => CreateProjectInput) input: CreateProjectInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return projectForkService.createForUser(ctx, userId, input);
  }
}
