import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Info,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import { preloadProjectRelations, withPreloadedRelations } from '../projects';
import { Internal } from '../../core/graphql/internal';
import { Allow } from '../../core/auth/allow';
import { avatarUrl } from '../avatars';
import { Reads } from '../../core/graphql/reads';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import { idOrFullPath } from '../../core/params/parse-id-or-path';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { Visibility, toVisibility } from '../access';
import { projectColumns, projectPageColumns, type Project } from '../projects';
import { MaxItems, limitDescription, servedLimit } from '../../core/graphql/list-bound';
import { projectService } from '../projects';
import { ProjectPage, ProjectType } from '../projects';
import {
  CreateGroupInput,
  DescendantGroupsArgs,
  GroupListArgs,
  GroupProjectsPageArgs,
  GroupsArgs,
  SubgroupsArgs,
  UpdateGroupInput,
} from './group.inputs';
import { GROUP_DETAIL_PROJECTS, type GroupStatistics } from './group.loaders';
import { groupService } from './group.service';
import { GroupIdArg, GroupPage, GroupStatisticsType, GroupType } from './group.type';
import { GroupChangeType } from './group-change.type';
import { groupChanges, type GroupChange } from './group-changes';
import type { Namespace } from '../namespaces';
import { GroupProjectsArgs, GroupSharedProjectsArgs } from './group-projects.args';
import type { Loaded } from '../../core/context/peek-loader';
import { groupPolicy } from './group.policy';
import { groupAvatarFile } from './group-avatar-files';

@Resolver(() => GroupType)
export class GroupResolver {
  @Query(() => GroupPage, { description: 'Groups visible to the caller.' })
  @Allow('anonymous')
  groups(@Args() args: GroupListArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return groupService.list(ctx, args);
  }

  @Query(() => GroupType, {
    description:
      'A group by `fullPath` or by `id` (global id, database id or full path); null with NOT_FOUND when not visible.',
  })
  @Allow('anonymous')
  group(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('fullPath', () => ID, {
      nullable: true,
      description: "The full path (`acme/platform`), as GitLab's `group(fullPath)`.",
    })
    fullPath: string | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return groupService.findVisible(ctx, idOrFullPath(id, fullPath, ['Group']));
  }

  /**
   * REST's GET /groups/:id/subgroups, /descendant_groups, /projects and /projects/shared: internal view
   * only. GraphQL clients read `Group.subgroups`, `descendantGroups`, `projects` and `sharedProjects`.
   */
  @Internal()
  @Query(() => GroupPage, { description: 'Visible direct subgroups.' })
  @Allow('anonymous')
  groupSubgroups(@Args() args: SubgroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return groupService.subgroups(ctx, args.id, args);
  }

  @Internal()
  @Query(() => GroupPage, { description: 'Visible subgroups at any depth, filtered and ordered as groupSubgroups.' })
  @Allow('anonymous')
  groupDescendantGroups(@Args() args: SubgroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return groupService.descendantGroups(ctx, args.id, args);
  }

  @Internal()
  @Query(() => ProjectPage, { description: 'Projects of a group and projects shared with it.' })
  @Allow('anonymous')
  async groupProjects(
    @Args() args: GroupProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const group = await groupService.findVisible(ctx, args.id);
    const page = await projectService.list(
      ctx,
      { ...args, archivedOnly: args.archivedOnly ?? false },
      { groupId: group.id },
    );
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }

  @Internal()
  @Query(() => ProjectPage, { description: 'Only the projects shared with a group, visible to the caller.' })
  @Allow('anonymous')
  async groupSharedProjects(
    @Args() args: GroupSharedProjectsArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const group = await groupService.findVisible(ctx, args.id);
    const page = await projectService.list(ctx, args, { sharedWithGroup: group.id });
    await preloadProjectRelations(ctx, page.nodes, info, ['nodes']);
    return page;
  }

  @Mutation(() => GroupType)
  @Allow('user')
  createGroup(
    @Arg('input', () => CreateGroupInput) input: CreateGroupInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return groupService.create(ctx, input);
  }

  @Mutation(() => GroupType)
  @Allow('user')
  updateGroup(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateGroupInput) input: UpdateGroupInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return groupService.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes the group with its subgroups and projects.' })
  @Allow('user')
  deleteGroup(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return groupService.remove(ctx, id);
  }

  @Mutation(() => GroupType, { description: 'Administrators only; returns the target group.' })
  @Allow('admin')
  @PayloadMutation({ name: 'projectTransferToGroup' })
  transferProjectToGroup(
    @Arg('id', () => ID) id: string,
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<Namespace> {
    return groupService.transferProject(ctx, id, projectId);
  }

  @FieldResolver(() => Visibility)
  visibility(@Root() g: Namespace): Visibility {
    return toVisibility(g.visibilityLevel);
  }

  /** Unset follows the instance setting (LFS on). */
  @FieldResolver(() => Boolean)
  lfsEnabled(@Root() g: Namespace): boolean {
    return g.lfsEnabled ?? true;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Absolute URL of the uploaded avatar image; null without one.',
  })
  @Reads('id')
  avatarUrl(@Root() g: Namespace, @Ctx() ctx: RequestCtx): string | null | Promise<string | null> {
    const file = groupAvatarFile(ctx, g);
    return file instanceof Promise
      ? file.then((name) => avatarUrl(ctx.externalUrl, 'group', g.id, name))
      : avatarUrl(ctx.externalUrl, 'group', g.id, file);
  }

  @FieldResolver(() => String)
  webUrl(@Root() g: Namespace, @Ctx() ctx: RequestCtx): string {
    return `${ctx.externalUrl}/groups/${g.fullPath}`;
  }

  @FieldResolver(() => GroupType, {
    nullable: true,
    description: 'The parent group, when the caller may see it (as group(id) would); null for a top-level group.',
  })
  parent(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Loaded<Namespace | null> {
    if (!g.parentId) return null;
    return ctx.loaders.visibleGroup.get(g.parentId);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Projects of this group (not of subgroups) the caller may see, counted up to 10,000 (null above).',
  })
  projectsCount(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<number | null> {
    return ctx.loaders.groupProjectsCount.load(g.id);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Subgroups at any depth the caller may see, counted up to 10,000 (null above).',
  })
  descendantGroupsCount(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<number | null> {
    return ctx.loaders.groupDescendantGroupsCount.load(g.id);
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Direct members of this group, counted up to 10,000 (null above).',
  })
  groupMembersCount(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<number | null> {
    return ctx.loaders.groupMembersCount.load(g.id);
  }

  @FieldResolver(() => GroupStatisticsType, { nullable: true, description: 'Administrators only; null for others.' })
  statistics(@Root() g: Namespace, @Ctx() ctx: RequestCtx): Promise<GroupStatistics> | null {
    return groupPolicy.canSeeStatistics(ctx.user) ? ctx.loaders.groupStatistics.load(g.id) : null;
  }

  /** GitLab 10.3's group detail (`GET /groups/:id` lists the group's projects); GraphQL clients page `projects`. */
  @Internal()
  @FieldResolver(() => [ProjectType], {
    description: `Projects in the group the caller may see, the first ${GROUP_DETAIL_PROJECTS} by id (GitLab’s detail form; all of them: groupProjects).`,
  })
  @MaxItems(GROUP_DETAIL_PROJECTS)
  detailProjects(
    @Root() g: Namespace,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
    @Arg('limit', () => Int, { nullable: true, description: limitDescription(GROUP_DETAIL_PROJECTS) })
    limit: number | undefined,
  ): Promise<Project[]> {
    const key = {
      groupId: g.id,
      columns: projectColumns(ctx.em, info, 'p'),
      limit: servedLimit(limit, GROUP_DETAIL_PROJECTS),
    };
    return withPreloadedRelations(ctx, ctx.loaders.groupProjects.load(key), info);
  }

  /** GitLab 10.3's group detail (`shared_projects`). */
  @Internal()
  @FieldResolver(() => [ProjectType], {
    description: `Projects shared with the group that the caller may see, the first ${GROUP_DETAIL_PROJECTS} by id.`,
  })
  @MaxItems(GROUP_DETAIL_PROJECTS)
  detailSharedProjects(
    @Root() g: Namespace,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
    @Arg('limit', () => Int, { nullable: true, description: limitDescription(GROUP_DETAIL_PROJECTS) })
    limit: number | undefined,
  ): Promise<Project[]> {
    const key = {
      groupId: g.id,
      columns: projectColumns(ctx.em, info, 'p'),
      limit: servedLimit(limit, GROUP_DETAIL_PROJECTS),
    };
    return withPreloadedRelations(ctx, ctx.loaders.groupSharedProjects.load(key), info);
  }

  /** The parent is already visible here; batched across the parents of a list (no N+1). */
  @FieldResolver(() => GroupPage, { description: 'Visible direct subgroups.' })
  subgroups(@Root() g: Namespace, @Args() args: GroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return ctx.loaders.subgroups.load({ parentId: g.id, args: { ...args } });
  }

  /** GitLab's `Group.descendantGroups`; batched across the groups of a list (one count and one page statement per argument set). */
  @FieldResolver(() => GroupPage, {
    description:
      'Subgroups at any depth the caller may see (as `groups(allAvailable: true)`), by name; includeParentDescendants: false for the direct ones.',
  })
  descendantGroups(
    @Root() g: Namespace,
    @Args() args: DescendantGroupsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Namespace>> {
    return ctx.loaders.descendantGroups.load({ parentId: g.id, args: { ...args } });
  }

  @Subscription(() => GroupChangeType, {
    description:
      'Live: each group created, changed (renamed, moved, visibility or settings, shared) or deleted, on any instance (WebSocket, graphql-transport-ws). ' +
      'Administrators receive every group; other users the groups `group(id)` shows them, and DELETED without data for one they could see and no longer can.',
    subscribe: ({ args, context }) => groupChanges(context as RequestCtx, (args as { id?: number | null }).id),
  })
  @Allow('user')
  groupChanged(
    @Root() change: GroupChange,
    @Arg('id', () => GroupIdArg, { nullable: true, description: 'Only this group.' }) _id?: number,
  ): GroupChange {
    return change;
  }

  /** GitLab's `Group.projects(includeSubgroups, includeArchived, search, sort)`; batched across the groups of a list. */
  @FieldResolver(() => ProjectPage, {
    description:
      'The projects the caller may see in this group (with includeSubgroups: and in its descendants); by id when sort is omitted.',
  })
  projects(
    @Root() g: Namespace,
    @Args() args: GroupProjectsPageArgs,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Page<Project>> {
    const columns = projectPageColumns(ctx.em, info, 'p');
    return ctx.loaders.groupProjectPages.load({ parentId: g.id, args: { ...args, columns } });
  }
}
