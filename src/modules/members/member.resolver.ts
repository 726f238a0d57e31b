import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { memberService } from './member.service';
import { MemberInput, MemberPage, MembersArgs, MemberType, UpdateMemberInput } from './member.type';

@Resolver(() => MemberType)
export class MemberResolver {
  @Query(() => MemberPage, { description: 'Direct members of a group.' })
  groupMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'group', args);
  }

  @Query(() => MemberPage, { description: 'Direct members of a project.' })
  projectMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'project', args);
  }

  @Query(() => MemberType)
  groupMember(@Arg('groupId', () => ID) groupId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.get(ctx, 'group', groupId, userId);
  }

  @Query(() => MemberType)
  projectMember(@Arg('projectId', () => ID) projectId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.get(ctx, 'project', projectId, userId);
  }

  @Mutation(() => MemberType)
  addGroupMember(@Arg('groupId', () => ID) groupId: string, @Arg('input', () => MemberInput) input: MemberInput, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.add(ctx, 'group', groupId, input);
  }

  @Mutation(() => MemberType)
  addProjectMember(@Arg('projectId', () => ID) projectId: string, @Arg('input', () => MemberInput) input: MemberInput, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.add(ctx, 'project', projectId, input);
  }

  @Mutation(() => MemberType)
  updateGroupMember(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('input', () => UpdateMemberInput) input: UpdateMemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.update(ctx, 'group', groupId, userId, input);
  }

  @Mutation(() => MemberType)
  updateProjectMember(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('input', () => UpdateMemberInput) input: UpdateMemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.update(ctx, 'project', projectId, userId, input);
  }

  @Mutation(() => Boolean)
  removeGroupMember(@Arg('groupId', () => ID) groupId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return memberService.remove(ctx, 'group', groupId, userId);
  }

  @Mutation(() => Boolean)
  removeProjectMember(@Arg('projectId', () => ID) projectId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return memberService.remove(ctx, 'project', projectId, userId);
  }
}
