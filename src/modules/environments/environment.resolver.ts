import { EnvironmentIdArg } from './environment.type';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { Environment } from './environment.entity';
import { environmentService } from './environment.service';
import {
  CreateEnvironmentInput,
  EnvironmentPage,
  EnvironmentsArgs,
  EnvironmentType,
  UpdateEnvironmentInput,
} from './environment.type';

/** Spec 4.30-4.34; roles are checked in the service (reporter reads, developer creates and stops, master updates and deletes). */
@Resolver(() => EnvironmentType)
export class EnvironmentResolver {
  @Query(() => EnvironmentPage, { description: 'Environments of a project (Reporter or above).' })
  @Allow('user')
  projectEnvironments(@Args() args: EnvironmentsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Environment>> {
    return environmentService.list(ctx, args);
  }

  @Query(() => EnvironmentType)
  @Allow('user')
  environment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environmentId', () => EnvironmentIdArg) environmentId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment> {
    return environmentService.get(ctx, projectId, environmentId);
  }

  @Mutation(() => EnvironmentType)
  @Allow('user')
  createEnvironment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => CreateEnvironmentInput) input: CreateEnvironmentInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment> {
    return environmentService.create(ctx, projectId, input);
  }

  @Mutation(() => EnvironmentType)
  @Allow('user')
  updateEnvironment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environmentId', () => EnvironmentIdArg) environmentId: number,
    @Arg('input', () => UpdateEnvironmentInput) input: UpdateEnvironmentInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment> {
    return environmentService.update(ctx, projectId, environmentId, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  deleteEnvironment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environmentId', () => EnvironmentIdArg) environmentId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return environmentService.remove(ctx, projectId, environmentId);
  }

  @Mutation(() => EnvironmentType)
  @Allow('user')
  stopEnvironment(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('environmentId', () => EnvironmentIdArg) environmentId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<Environment> {
    return environmentService.stop(ctx, projectId, environmentId);
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
