import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { policy } from '../access/policy';
import { VISIBILITY_LEVEL, Visibility, toVisibility } from '../access/visibility.type';
import type { Namespace } from '../namespaces/namespace.entity';
import { NamespaceType } from '../namespaces/namespace.type';
import { Project } from './project.entity';
import { CreateProjectInput, ProjectFilterArgs, ShareProjectInput, UpdateProjectInput } from './project.inputs';
import type { ProjectShareView } from './project.loaders';
import { projectService } from './project.service';
import { projectRunnersToken } from './project-runners-token';
import { ProjectGroupLinkType, ProjectPage, ProjectType, SharedWithGroupType, StarProjectPayload } from './project.type';
import type { Page } from '../../core/pagination/page';
import type { ProjectGroupLink } from './project-group-link.entity';

function host(ctx: RequestCtx): string {
  return new URL(ctx.externalUrl).hostname;
}

async function namespaceOf(ctx: RequestCtx, project: Project): Promise<Namespace> {
  const ns = await ctx.loaders.namespace.load(project.namespaceId);
  if (!ns) throw new Error(`project ${project.id} has no namespace`);
  return ns;
}

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectPage, { description: 'Projects visible to the caller (GET /projects).' })
  @Allow('anonymous')
  projects(@Args() args: ProjectFilterArgs, @Ctx() ctx: RequestCtx): Promise<Page<Project>> {
    return projectService.list(ctx, args);
  }

  @Query(() => ProjectType, { description: 'A project by id or full path (404 when not visible).' })
  @Allow('anonymous')
  project(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<Project> {
    return projectService.findVisible(ctx, id);
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  createProject(@Arg('input', () => CreateProjectInput) input: CreateProjectInput, @Ctx() ctx: RequestCtx): Promise<Project> {
    return projectService.create(ctx, input);
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  updateProject(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateProjectInput) input: UpdateProjectInput, @Ctx() ctx: RequestCtx): Promise<Project> {
    return projectService.update(ctx, id, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  deleteProject(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return projectService.remove(ctx, id);
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  archiveProject(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<Project> {
    return projectService.setArchived(ctx, id, true);
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  unarchiveProject(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<Project> {
    return projectService.setArchived(ctx, id, false);
  }

  @Mutation(() => StarProjectPayload)
  @Allow('user')
  starProject(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<{ project: Project; changed: boolean }> {
    return projectService.star(ctx, id);
  }

  @Mutation(() => ProjectGroupLinkType)
  @Allow('user')
  shareProject(@Arg('id', () => ID) id: string, @Arg('input', () => ShareProjectInput) input: ShareProjectInput, @Ctx() ctx: RequestCtx): Promise<ProjectGroupLink> {
    return projectService.share(ctx, id, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  unshareProject(@Arg('id', () => ID) id: string, @Arg('groupId', () => Int) groupId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return projectService.unshare(ctx, id, groupId);
  }

  @FieldResolver(() => Visibility)
  visibility(@Root() p: Project): Visibility {
    return toVisibility(p.visibilityLevel);
  }

  @FieldResolver(() => NamespaceType, { description: 'The namespace (group or user) the project lives in.' })
  namespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<Namespace> {
    return namespaceOf(ctx, p);
  }

  @FieldResolver(() => String)
  async nameWithNamespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string> {
    const ns = await namespaceOf(ctx, p);
    return `${ns.kind === 'user' ? ns.name : ns.fullName} / ${p.name}`;
  }

  @FieldResolver(() => String)
  async pathWithNamespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string> {
    return `${(await namespaceOf(ctx, p)).fullPath}/${p.path}`;
  }

  @FieldResolver(() => String)
  async webUrl(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string> {
    return `${ctx.externalUrl}/${await this.pathWithNamespace(p, ctx)}`;
  }

  @FieldResolver(() => String)
  async httpUrlToRepo(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string> {
    return `${ctx.externalUrl}/${await this.pathWithNamespace(p, ctx)}.git`;
  }

  @FieldResolver(() => String)
  async sshUrlToRepo(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string> {
    return `git@${host(ctx)}:${await this.pathWithNamespace(p, ctx)}.git`;
  }

  @FieldResolver(() => [SharedWithGroupType])
  sharedWithGroups(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<ProjectShareView[]> {
    return ctx.loaders.projectShares.load(p.id);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Only for callers with Master access or above.' })
  async runnersToken(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string | null> {
    if (!ctx.user) return null;
    const level = policy.isAdmin(ctx.user) ? 0 : await ctx.loaders.projectLevel.load(p.id);
    return policy.canAdminProject(ctx.user, level) ? projectRunnersToken(ctx, p) : null;
  }

  @FieldResolver(() => Boolean, { description: 'true for public projects.' })
  public(@Root() p: Project): boolean {
    return p.visibilityLevel >= VISIBILITY_LEVEL.PUBLIC;
  }
}
