import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { accessRequestService as service } from './access-request.service';
import { AccessRequesterPage, AccessRequesterType } from './access-request.type';
import { MemberType } from './member.type';

/** Access requests of groups and projects (GitLab 10.3's access requests API). */
@Resolver(() => AccessRequesterType)
export class AccessRequestResolver {
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
