import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { preloadProjectRelations } from './project-preload';
import { Allow } from '../../core/auth/allow';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import { idOrFullPath } from '../../core/params/parse-id-or-path';
import { Reads } from '../../core/graphql/reads';
import { MaxItems, limitDescription, servedLimit } from '../../core/graphql/list-bound';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Loaded } from '../../core/context/peek-loader';
import { policy, VISIBILITY_LEVEL, Visibility, toVisibility } from '../access';
import type { Namespace } from '../namespaces';
import { NamespaceType } from '../namespaces';
import { Project } from './project.entity';
import { CreateProjectInput, GroupIdArg, ProjectsArgs, ShareProjectInput, UpdateProjectInput } from './project.inputs';
import { PROJECT_SHARES_MAX, type ProjectPermissionsView, type ProjectShareView } from './project.loaders';
import { projectService } from './project.service';
import { projectRunnersToken } from './project-runners-token';
import {
  ProjectGroupLinkType,
  ProjectLinksType,
  ProjectPage,
  ProjectPermissionsType,
  ProjectStatisticsType,
  ProjectType,
  SharedWithGroupType,
  StarProjectPayload,
  PROJECT_TAGS_MAX,
} from './project.type';
import { UserType } from '../users';
import type { User } from '../users';
import type { Page } from '../../core/pagination/page';
import type { ProjectGroupLink } from './project-group-link.entity';
import { avatarUrl } from '../avatars';
import { projectPolicy } from './project.policy';

function nsMissing(project: Project): never {
  throw new Error(`project ${project.id} has no namespace`);
}

/** The project's namespace: at once when the list primed the loader (preloadProjectRelations), else batched. */
function namespaceOf(ctx: RequestCtx, project: Project): Loaded<Namespace> {
  return withNamespace(ctx, project, (ns) => ns);
}

/** `f(namespace)`, synchronously when the namespace is already loaded. */
function withNamespace<T>(ctx: RequestCtx, project: Project, f: (ns: Namespace) => T): Loaded<T> {
  return ctx.loaders.namespace.map(project.namespaceId, (ns) => f(ns ?? nsMissing(project)));
}

const fullPathOf = (ns: Namespace, p: Project) => `${ns.fullPath}/${p.path}`;

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectPage, { description: 'Projects visible to the caller.' })
  @Allow('anonymous')
  async projects(
    @Args() args: ProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const page = await projectService.list(ctx, args);
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }

  @Query(() => ProjectType, {
    description:
      'A project by `fullPath` or by `id` (global id, database id or full path); null with NOT_FOUND when not visible.',
  })
  @Allow('anonymous')
  project(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('fullPath', () => ID, {
      nullable: true,
      description: "The full path (`acme/platform/api`), as GitLab's `project(fullPath)`.",
    })
    fullPath: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return projectService.findVisible(ctx, idOrFullPath(id, fullPath, ['Project']));
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  createProject(
    @Arg('input', () => CreateProjectInput) input: CreateProjectInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return projectService.create(ctx, input);
  }

  @Mutation(() => ProjectType)
  @Allow('user')
  updateProject(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateProjectInput) input: UpdateProjectInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
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
  @PayloadMutation({ field: 'star' })
  starProject(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<{ project: Project; changed: boolean }> {
    return projectService.star(ctx, id);
  }

  @Mutation(() => StarProjectPayload, {
    description: "Removes the caller's star (changed false when it was not starred).",
  })
  @Allow('user')
  @PayloadMutation({ field: 'star' })
  unstarProject(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<{ project: Project; changed: boolean }> {
    return projectService.unstar(ctx, id);
  }

  @Mutation(() => ProjectGroupLinkType)
  @Allow('user')
  shareProject(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ShareProjectInput) input: ShareProjectInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<ProjectGroupLink> {
    return projectService.share(ctx, id, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  unshareProject(
    @Arg('id', () => ID) id: string,
    @Arg('groupId', () => GroupIdArg) groupId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return projectService.unshare(ctx, id, groupId);
  }

  @FieldResolver(() => ProjectStatisticsType, {
    description: 'Storage statistics (REST: `statistics=true`, as GitLab 10.3: for whoever may see the project).',
  })
  @Reads('storageSize', 'repositorySize', 'lfsObjectsSize', 'jobArtifactsSize')
  statistics(@Root() p: Project): ProjectStatisticsType {
    return {
      commitCount: 0,
      storageSize: Number(p.storageSize),
      repositorySize: Number(p.repositorySize),
      lfsObjectsSize: Number(p.lfsObjectsSize),
      jobArtifactsSize: Number(p.jobArtifactsSize),
    };
  }

  @FieldResolver(() => Visibility)
  @Reads('visibilityLevel')
  visibility(@Root() p: Project): Visibility {
    return toVisibility(p.visibilityLevel);
  }

  @FieldResolver(() => NamespaceType, { description: 'The namespace (group or user) the project lives in.' })
  @Reads('namespaceId')
  namespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<Namespace> {
    return namespaceOf(ctx, p);
  }

  @FieldResolver(() => String)
  @Reads('name', 'namespaceId')
  nameWithNamespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => `${ns.kind === 'user' ? ns.name : ns.fullName} / ${p.name}`);
  }

  @FieldResolver(() => String)
  @Reads('path', 'namespaceId')
  pathWithNamespace(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => fullPathOf(ns, p));
  }

  @FieldResolver(() => [String], { description: "The project's topics (GitLab's later name for its tag list)." })
  @MaxItems(PROJECT_TAGS_MAX)
  @Reads('tagList')
  topics(@Root() p: Project): string[] {
    return p.tagList;
  }

  @FieldResolver(() => ID, { description: "Full path of the project (GitLab's name for pathWithNamespace)." })
  @Reads('path', 'namespaceId')
  fullPath(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => fullPathOf(ns, p));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Absolute URL of the uploaded avatar image; null without one.',
  })
  @Reads('id', 'avatar')
  avatarUrl(@Root() p: Project, @Ctx() ctx: RequestCtx): string | null {
    return avatarUrl(ctx.externalUrl, 'project', p.id, p.avatar);
  }

  @FieldResolver(() => String)
  @Reads('path', 'namespaceId')
  webUrl(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => `${ctx.externalUrl}/${fullPathOf(ns, p)}`);
  }

  @FieldResolver(() => String)
  @Reads('path', 'namespaceId')
  httpUrlToRepo(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => `${ctx.externalUrl}/${fullPathOf(ns, p)}.git`);
  }

  @FieldResolver(() => String)
  @Reads('path', 'namespaceId')
  sshUrlToRepo(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<string> {
    return withNamespace(ctx, p, (ns) => `git@${ctx.externalHost}:${fullPathOf(ns, p)}.git`);
  }

  @FieldResolver(() => [SharedWithGroupType], {
    description: `The groups the project is shared with, the first ${PROJECT_SHARES_MAX} shares.`,
  })
  @Reads('id')
  @MaxItems(PROJECT_SHARES_MAX)
  sharedWithGroups(
    @Root() p: Project,
    @Ctx() ctx: RequestCtx,
    @Arg('limit', () => Int, { nullable: true, description: limitDescription(PROJECT_SHARES_MAX) })
    limit: number | undefined,
  ): Loaded<ProjectShareView[]> {
    // Loaded up to the bound (one batch for every project of the page), served up to `limit`.
    const served = servedLimit(limit, PROJECT_SHARES_MAX);
    const shares = ctx.loaders.projectShares.get(p.id);
    if (served === PROJECT_SHARES_MAX) return shares;
    return Array.isArray(shares) ? shares.slice(0, served) : shares.then((all) => all.slice(0, served));
  }

  @FieldResolver(() => String, { nullable: true, description: 'Only for callers with Master access or above.' })
  @Reads('id', 'runnersToken')
  async runnersToken(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<string | null> {
    if (!ctx.user) return null;
    const level = policy.isAdmin(ctx.user) ? 0 : await ctx.loaders.projectLevel.load(p.id);
    return projectPolicy.canAdminProject(ctx.user, level) ? projectRunnersToken(ctx, p) : null;
  }

  @FieldResolver(() => ProjectLinksType, { description: 'API URLs of the project and its sub-resources.' })
  @Reads('id', 'issuesEnabled', 'mergeRequestsEnabled')
  links(@Root() p: Project, @Ctx() ctx: RequestCtx): ProjectLinksType {
    // GitLab 10.3 (Entities::Project `_links`): plain URLs by id, issues and merge requests only when enabled.
    const base = `${ctx.externalUrl}/api/v4/projects/${p.id}`;
    return {
      self: base,
      issues: p.issuesEnabled ? `${base}/issues` : null,
      mergeRequests: p.mergeRequestsEnabled ? `${base}/merge_requests` : null,
      repoBranches: `${base}/repository/branches`,
      labels: `${base}/labels`,
      events: `${base}/events`,
      members: `${base}/members`,
    };
  }

  @FieldResolver(() => UserType, { nullable: true, description: 'The owner of a personal project; null in a group.' })
  @Reads('namespaceId')
  owner(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    return ctx.loaders.namespaceOwner.get(p.namespaceId);
  }

  @FieldResolver(() => Boolean, { description: "Git LFS: the project's setting, else its group's, else on." })
  @Reads('lfsEnabled', 'namespaceId')
  lfsEnabled(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<boolean> {
    // GitLab 10.3's Project#lfs_enabled? (LFS is on for the instance): a personal namespace's is on.
    if (p.lfsEnabled !== null && p.lfsEnabled !== undefined) return p.lfsEnabled;
    return withNamespace(ctx, p, (ns) => (ns.kind === 'group' ? (ns.lfsEnabled ?? true) : true));
  }

  @FieldResolver(() => String, { description: 'Always "none": nothing is imported here.' })
  @Reads('id')
  importStatus(@Root() _p: Project): string {
    return 'none';
  }

  @FieldResolver(() => String, { nullable: true, description: 'Always null: nothing is imported here.' })
  @Reads('id')
  importError(@Root() _p: Project): string | null {
    return null;
  }

  @FieldResolver(() => ProjectType, {
    nullable: true,
    description: 'The project this one is a fork of, when the caller may see it.',
  })
  @Reads('forkedFromProjectId')
  forkedFromProject(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<Project | null> {
    const id = p.forkedFromProjectId;
    if (id === null || id === undefined) return null;
    return ctx.loaders.visibleProject.get(id);
  }

  @FieldResolver(() => ProjectPermissionsType, {
    nullable: true,
    description: "The caller's own membership of the project and of its group; null for anonymous callers.",
  })
  @Reads('id')
  permissions(@Root() p: Project, @Ctx() ctx: RequestCtx): Loaded<ProjectPermissionsView | null> {
    if (!ctx.user) return null;
    return ctx.loaders.projectPermissions.get(p.id);
  }

  @FieldResolver(() => Boolean, { description: 'true for public projects.' })
  @Reads('visibilityLevel')
  public(@Root() p: Project): boolean {
    return p.visibilityLevel >= VISIBILITY_LEVEL.PUBLIC;
  }
}
