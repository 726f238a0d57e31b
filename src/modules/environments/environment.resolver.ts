import { EnvironmentIdArg } from './environment.type';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { Environment } from './environment.entity';
import { environmentService } from './environment.service';
import { EnvironmentPage, EnvironmentsArgs, EnvironmentType } from './environment.type';
import {
  CreateEnvironmentArgs,
  EnvironmentTargetArgs,
  StopEnvironmentArgs,
  UpdateEnvironmentArgs,
} from './environment.inputs';

/** Spec 4.30-4.34; roles are checked in the service (reporter reads, developer creates and stops, master updates and deletes). */
@Resolver(() => EnvironmentType)
export class EnvironmentResolver {
  /**
   * REST's GET /projects/:id/environments[/:environment_id]: internal view only. GraphQL clients read
   * `Project.environments` and an environment by its global id (`node(id)`).
   */
  @Internal()
  @Query(() => EnvironmentPage, { description: 'Environments of a project (Reporter or above).' })
  @Allow('user')
  projectEnvironments(@Args() args: EnvironmentsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Environment>> {
    return environmentService.list(ctx, args);
  }

  @Internal()
  @Query(() => EnvironmentType)
  @Allow('user')
  environment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environmentId', () => EnvironmentIdArg) environmentId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment> {
    return environmentService.get(ctx, projectId, environmentId);
  }

  /** REST names the project by `projectId`; GitLab's `environmentCreate` by `projectPath` (environment.inputs.ts). */
  @Mutation(() => EnvironmentType, { description: 'Creates an environment (Developer or above).' })
  @Allow('user')
  createEnvironment(@Args() args: CreateEnvironmentArgs, @Ctx() ctx: RequestCtx): Promise<Environment> {
    return environmentService.create(ctx, args);
  }

  /** REST names project and environment; GitLab's `environmentUpdate` the environment's global `id`. */
  @Mutation(() => EnvironmentType, { description: 'Updates an environment (Maintainer or above).' })
  @Allow('user')
  updateEnvironment(@Args() args: UpdateEnvironmentArgs, @Ctx() ctx: RequestCtx): Promise<Environment> {
    return environmentService.update(ctx, args);
  }

  /** REST names project and environment; GitLab's `environmentDelete` the environment's global `id`. */
  @Mutation(() => Boolean, { description: 'Deletes an environment (Maintainer or above).' })
  @Allow('user')
  deleteEnvironment(@Args() args: EnvironmentTargetArgs, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return environmentService.remove(ctx, args);
  }

  /** REST names project and environment; GitLab's `environmentStop` the environment's global `id` (and `force`). */
  @Mutation(() => EnvironmentType, { description: 'Stops an environment (Developer or above).' })
  @Allow('user')
  stopEnvironment(@Args() args: StopEnvironmentArgs, @Ctx() ctx: RequestCtx): Promise<Environment> {
    return environmentService.stop(ctx, args);
  }

  @FieldResolver(() => ProjectType)
  project(@Root() env: Environment, @Ctx() ctx: RequestCtx): Promise<Project> {
    return ctx.loaders.environmentProject.load(env.projectId);
  }

  // GitLab's Environment.path: project_environment_path, under the instance's relative URL root.
  @FieldResolver(() => String, {
    description: "Path of the environment's page (`/<project full path>/-/environments/<id>`).",
  })
  async path(@Root() env: Environment, @Ctx() ctx: RequestCtx): Promise<string> {
    const project = await ctx.loaders.environmentProject.load(env.projectId);
    const ns = await ctx.loaders.namespace.get(project.namespaceId);
    if (!ns) throw new Error(`project ${project.id} has no namespace`);
    return `${new URL(ctx.externalUrl).pathname.replace(/\/$/, '')}/${ns.fullPath}/${project.path}/-/environments/${env.id}`;
  }
}
