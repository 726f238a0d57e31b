import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { memberService } from './member.service';
import { MemberInput, MemberPage, MembersArgs, MemberType, UpdateMemberInput } from './member.type';

@Resolver(() => MemberType)
export class MemberResolver {
  @Query(() => MemberPage, { description: 'Direct members of a group.' })
  @Allow('anonymous')
  groupMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'group', args);
  }

  @Query(() => MemberPage, { description: 'Direct members of a project.' })
  @Allow('anonymous')
  projectMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'project', args);
  }

  @Query(() => MemberType)
  @Allow('anonymous')
  groupMember(@Arg('groupId', () => ID) groupId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.get(ctx, 'group', groupId, userId);
  }

  @Query(() => MemberType)
  @Allow('anonymous')
  projectMember(@Arg('projectId', () => ID) projectId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.get(ctx, 'project', projectId, userId);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  addGroupMember(@Arg('groupId', () => ID) groupId: string, @Arg('input', () => MemberInput) input: MemberInput, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.add(ctx, 'group', groupId, input);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  addProjectMember(@Arg('projectId', () => ID) projectId: string, @Arg('input', () => MemberInput) input: MemberInput, @Ctx() ctx: RequestCtx): Promise<MemberType> {
    return memberService.add(ctx, 'project', projectId, input);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  updateGroupMember(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('input', () => UpdateMemberInput) input: UpdateMemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.update(ctx, 'group', groupId, userId, input);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  updateProjectMember(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Arg('input', () => UpdateMemberInput) input: UpdateMemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.update(ctx, 'project', projectId, userId, input);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  removeGroupMember(@Arg('groupId', () => ID) groupId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return memberService.remove(ctx, 'group', groupId, userId);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  removeProjectMember(@Arg('projectId', () => ID) projectId: string, @Arg('userId', () => Int) userId: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return memberService.remove(ctx, 'project', projectId, userId);
  }
}
