import { Internal } from '../../core/graphql/internal';
import { Args, ArgsType, Ctx, Field, ID, Int, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { PageArgs, type Page } from '../../core/pagination/page';
import { AccessLevel, policy } from '../access';
import type { Namespace } from '../namespaces';
import { projectPolicy, projectService } from '../projects';
import { listGroups, memberTreeAt, type GroupListScope } from './group-list.query';
import { GroupOrderBy } from './group.inputs';
import { GroupPage } from './group.type';
import { ShareTargetsArgs } from './project-group-lists';
import {
  invitedGroupsMatch,
  mayAdminProject,
  projectGroupsMatch,
  shareLocked,
  shareTargetScope,
} from './project-group-lists.query';

// REST's project group lists (later GitLab), internal view only: GraphQL clients read the project's
// fields `groups`, `invitedGroups` and `shareTargets` (project-group-lists.ts), which run the same
// predicates (project-group-lists.query.ts) for a page of projects at once.

/** GET /projects/:id/transfer_locations and /share_locations (later GitLab). */
@ArgsType()
export class ProjectGroupLocationsArgs extends ShareTargetsArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
}

/** GET /projects/:id/groups (later GitLab's Projects::GroupsFinder). */
@ArgsType()
export class ProjectGroupsArgs extends PageArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
  @Field(() => String, { nullable: true, description: 'Name or path (as the groups list).' }) search?: string;
  @Field(() => [Int], { nullable: true, description: 'Group ids to leave out.' }) skipGroups?: number[];
  @Field(() => Boolean, { nullable: true, description: 'Also the groups the project is shared with.' })
  withShared?: boolean;
  @Field(() => Int, { nullable: true, description: 'With withShared: only shares granting at least this level.' })
  sharedMinAccessLevel?: number;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Accepted: the shared groups listed are always those the caller may see.',
  })
  sharedVisibleOnly?: boolean;
}

/** GET /projects/:id/invited_groups (later GitLab): the groups a project is shared with. */
@ArgsType()
export class ProjectInvitedGroupsArgs extends PageArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
  @Field(() => String, { nullable: true, description: 'Name or path (as the groups list).' }) search?: string;
  @Field(() => Int, { nullable: true, description: "Only groups where the caller's access level is at least this." })
  minAccessLevel?: number;
}

@Resolver()
export class ProjectGroupsResolver {
  /**
   * The project's group and its ancestors (as visible as the project, or more), and with `withShared`
   * the groups it is shared with that the caller may see; by name, as the groups list.
   */
  @Internal()
  @Query(() => GroupPage, { description: "A project's group, its ancestors and (withShared) its share groups." })
  @Allow('anonymous')
  async projectGroups(@Args() args: ProjectGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    const project = await projectService.findVisible(ctx, args.projectId);
    const match = projectGroupsMatch(String(project.id), args.withShared, args.sharedMinAccessLevel);
    return listGroups(ctx, { ...args, allAvailable: true }, { match });
  }

  /**
   * Where the project's Owner may move it (GitLab's transfer_projects finder): the groups where the caller
   * may create projects (Master or above, directly or above), less the project's group, by path; every
   * group for an administrator. Below Owner: 403. REST's GET /projects/:id/transfer_locations: internal
   * view only; GraphQL clients ask GitLab's `currentUser { groups(permissionScope: TRANSFER_PROJECTS) }`.
   */
  @Internal()
  @Query(() => GroupPage, { description: 'The groups a project can be transferred to, by path.' })
  @Allow('user')
  async projectTransferLocations(
    @Args() args: ProjectGroupLocationsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Namespace>> {
    const user = requireUser(ctx);
    const project = await projectService.findVisible(ctx, args.projectId);
    if (!projectPolicy.canDeleteProject(user, await projectService.accessLevel(ctx, project)))
      throw new ForbiddenError();
    const scope: GroupListScope = policy.isAdmin(user)
      ? {}
      : { match: memberTreeAt(Number(user.id), AccessLevel.MASTER) };
    const skipGroups = [project.namespaceId];
    return listGroups(ctx, { ...args, allAvailable: true, orderBy: GroupOrderBy.PATH, skipGroups }, scope);
  }

  /**
   * The groups the project may be shared with (GitLab's AcceptingProjectSharesFinder): for a caller who
   * may share it (Master or above, a group without share_with_group_lock) the groups they are a member of
   * (or below), every group for an administrator, by path; none otherwise (`Project.shareTargets`: null
   * for a caller who may not administer the project).
   */
  @Internal()
  @Query(() => GroupPage, { description: 'The groups a project can be shared with, by path.' })
  @Allow('anonymous')
  async projectShareLocations(
    @Args() args: ProjectGroupLocationsArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<Namespace>> {
    const project = await projectService.findVisible(ctx, args.projectId);
    const mayShare = (await mayAdminProject(ctx, project)) && !(await shareLocked(ctx, project));
    const scope: GroupListScope = mayShare ? shareTargetScope(requireUser(ctx)) : { match: 'false' };
    return listGroups(ctx, { ...args, allAvailable: true, orderBy: GroupOrderBy.PATH }, scope);
  }

  /** The groups the project is shared with that the caller may see, by name. */
  @Internal()
  @Query(() => GroupPage, { description: 'The groups a project is shared with, visible to the caller.' })
  @Allow('anonymous')
  async projectInvitedGroups(@Args() args: ProjectInvitedGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    const project = await projectService.findVisible(ctx, args.projectId);
    const match = invitedGroupsMatch(ctx.user, String(project.id), args.minAccessLevel);
    return listGroups(ctx, { ...args, allAvailable: true }, { match });
  }
}
