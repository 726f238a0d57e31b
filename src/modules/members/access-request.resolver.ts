import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import { GroupType } from '../groups';
import { namespacePolicy, type Namespace } from '../namespaces';
import { ProjectType, projectPolicy, type Project } from '../projects';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { accessRequestService as service } from './access-request.service';
import { AccessRequesterPage, AccessRequesterType } from './access-request.type';
import { MemberType } from './member.type';

export function accessRequestLoaders(ctx: RequestCtx) {
  return {
    /** `Group.accessRequests` across the groups of a list: one round trip per argument set. */
    groupAccessRequestLists: perParentPages<PageArgs, AccessRequesterType>((args, ids) =>
      service.listForSources(ctx, 'group', ids, args),
    ),
    /** `Project.accessRequests` across the projects of a list. */
    projectAccessRequestLists: perParentPages<PageArgs, AccessRequesterType>((args, ids) =>
      service.listForSources(ctx, 'project', ids, args),
    ),
  };
}

type AccessRequestLoaders = ReturnType<typeof accessRequestLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends AccessRequestLoaders {}
}

/**
 * Access requests of groups and projects (GitLab 10.3's access requests API). The lists are REST's root
 * fields (internal view only): GraphQL clients read `Group.accessRequests` / `Project.accessRequests`.
 */
@Resolver(() => AccessRequesterType)
export class AccessRequestResolver {
  @Internal()
  @Query(() => AccessRequesterPage, {
    description: 'Users asking to join the group, oldest request first; for its Owners.',
  })
  @Allow('user')
  groupAccessRequests(
    @Arg('groupId', () => ID) groupId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AccessRequesterType>> {
    return service.list(ctx, 'group', groupId, args);
  }

  @Internal()
  @Query(() => AccessRequesterPage, {
    description: 'Users asking to join the project, oldest request first; for its Masters.',
  })
  @Allow('user')
  projectAccessRequests(
    @Arg('projectId', () => ID) projectId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AccessRequesterType>> {
    return service.list(ctx, 'project', projectId, args);
  }

  @Mutation(() => AccessRequesterType, {
    description: 'Ask to join the group (it must have requestAccessEnabled; not for those who already have access).',
  })
  @Allow('user')
  @PayloadMutation({ name: 'groupAccessRequestCreate' })
  requestGroupAccess(@Arg('groupId', () => ID) groupId: string, @Ctx() ctx: RequestCtx): Promise<AccessRequesterType> {
    return service.request(ctx, 'group', groupId);
  }

  @Mutation(() => AccessRequesterType, {
    description: 'Ask to join the project (it must have requestAccessEnabled; not for those who already have access).',
  })
  @Allow('user')
  @PayloadMutation({ name: 'projectAccessRequestCreate' })
  requestProjectAccess(
    @Arg('projectId', () => ID) projectId: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<AccessRequesterType> {
    return service.request(ctx, 'project', projectId);
  }

  @Mutation(() => MemberType, {
    description: "Make the request a membership (Developer unless accessLevel is given); for the group's Owners.",
  })
  @Allow('user')
  approveGroupAccessRequest(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('accessLevel', () => Int, { nullable: true }) accessLevel: number | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return service.approve(ctx, 'group', groupId, userId, accessLevel);
  }

  @Mutation(() => MemberType, {
    description: "Make the request a membership (Developer unless accessLevel is given); for the project's Masters.",
  })
  @Allow('user')
  approveProjectAccessRequest(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('accessLevel', () => Int, { nullable: true }) accessLevel: number | null,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return service.approve(ctx, 'project', projectId, userId, accessLevel);
  }

  @Mutation(() => Boolean, { description: "Deny a request (Owners) or withdraw one's own." })
  @Allow('user')
  denyGroupAccessRequest(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.deny(ctx, 'group', groupId, userId);
  }

  @Mutation(() => Boolean, { description: "Deny a request (Masters) or withdraw one's own." })
  @Allow('user')
  denyProjectAccessRequest(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return service.deny(ctx, 'project', projectId, userId);
  }
}

/** A group's and a project's access requests as their fields (ours), for those who manage the members; null for others. */
@Resolver(() => GroupType)
export class GroupAccessRequestsResolver {
  @FieldResolver(() => AccessRequesterPage, {
    nullable: true,
    description: 'Users asking to join the group, oldest request first: for its Owners; null for others.',
  })
  async accessRequests(
    @Root() g: Namespace,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AccessRequesterType> | null> {
    const level = ctx.user ? await ctx.loaders.groupLevel.load(g.id) : 0;
    if (!namespacePolicy.canAdminGroup(ctx.user, level)) return null;
    return ctx.loaders.groupAccessRequestLists.load({ parentId: g.id, args });
  }
}

@Resolver(() => ProjectType)
export class ProjectAccessRequestsResolver {
  @FieldResolver(() => AccessRequesterPage, {
    nullable: true,
    description: 'Users asking to join the project, oldest request first: for its Maintainers; null for others.',
  })
  @Reads('id')
  async accessRequests(
    @Root() p: Project,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<AccessRequesterType> | null> {
    const level = ctx.user ? await ctx.loaders.projectLevel.load(p.id) : 0;
    if (!projectPolicy.canAdminProject(ctx.user, level)) return null;
    return ctx.loaders.projectAccessRequestLists.load({ parentId: p.id, args });
  }
}
