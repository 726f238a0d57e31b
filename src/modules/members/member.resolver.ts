import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { Reads } from '../../core/graphql/reads';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import { GroupType } from '../groups';
import type { Namespace } from '../namespaces';
import type { Project } from '../projects';
import { ProjectType } from '../projects';
import type { User } from '../users';
import { UserType } from '../users';
import { memberService } from './member.service';
import { normalizedMemberListArgs } from './member-list.query';
import {
  GroupMemberListArgs,
  MemberInput,
  MemberPage,
  MembersArgs,
  MemberType,
  ProjectMemberListArgs,
  UpdateMemberInput,
} from './member.type';
import type { Loaded } from '../../core/context/peek-loader';

/**
 * The root member lists and lookups are REST's (GET /groups/:id/members[/all][/:user_id], the project
 * ones): internal view only. GraphQL clients read `Group.groupMembers` / `Project.projectMembers`
 * (relations: [DIRECT] for the direct ones) and a membership by its global id (`node(id)`).
 */
@Resolver(() => MemberType)
export class MemberResolver {
  @FieldResolver(() => UserType, {
    nullable: true,
    description: 'The member (null only if the user was deleted meanwhile).',
  })
  user(@Root() m: MemberType, @Ctx() ctx: RequestCtx): Loaded<User | null> {
    return ctx.loaders.user.get(m.userId);
  }

  @FieldResolver(() => GroupType, {
    nullable: true,
    description: 'The group of a group membership, when the caller may see it; null for a project membership.',
  })
  group(@Root() m: MemberType, @Ctx() ctx: RequestCtx): Loaded<Namespace | null> {
    return m.sourceType === 'group' ? ctx.loaders.visibleGroup.load(m.sourceId) : null;
  }

  @FieldResolver(() => ProjectType, {
    nullable: true,
    description: 'The project of a project membership, when the caller may see it; null for a group membership.',
  })
  project(@Root() m: MemberType, @Ctx() ctx: RequestCtx): Loaded<Project | null> {
    return m.sourceType === 'project' ? ctx.loaders.visibleProject.load(m.sourceId) : null;
  }

  @Internal()
  @Query(() => MemberPage, { description: 'Direct members of a group.' })
  @Allow('anonymous')
  groupMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'group', args);
  }

  @Internal()
  @Query(() => MemberPage, { description: 'Direct members of a project.' })
  @Allow('anonymous')
  projectMembers(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.list(ctx, 'project', args);
  }

  @Internal()
  @Query(() => MemberPage, {
    description:
      "A group's members with those of its ancestor groups, one entry per user with the highest access level.",
  })
  @Allow('anonymous')
  groupMembersAll(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.listAll(ctx, 'group', args);
  }

  @Internal()
  @Query(() => MemberPage, {
    description:
      "A project's members with those of its group and the group's ancestors, one entry per user with the highest access level.",
  })
  @Allow('anonymous')
  projectMembersAll(@Args() args: MembersArgs, @Ctx() ctx: RequestCtx): Promise<Page<MemberType>> {
    return memberService.listAll(ctx, 'project', args);
  }

  @Internal()
  @Query(() => MemberType, { description: "A user's entry in `groupMembersAll`." })
  @Allow('anonymous')
  groupMemberAll(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.getAll(ctx, 'group', groupId, userId);
  }

  @Internal()
  @Query(() => MemberType, { description: "A user's entry in `projectMembersAll`." })
  @Allow('anonymous')
  projectMemberAll(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.getAll(ctx, 'project', projectId, userId);
  }

  @Internal()
  @Query(() => MemberType)
  @Allow('anonymous')
  groupMember(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.get(ctx, 'group', groupId, userId);
  }

  @Internal()
  @Query(() => MemberType)
  @Allow('anonymous')
  projectMember(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.get(ctx, 'project', projectId, userId);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  addGroupMember(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('input', () => MemberInput) input: MemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
    return memberService.add(ctx, 'group', groupId, input);
  }

  @Mutation(() => MemberType)
  @Allow('user')
  addProjectMember(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('input', () => MemberInput) input: MemberInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<MemberType> {
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
  removeGroupMember(
    @Arg('groupId', () => ID) groupId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return memberService.remove(ctx, 'group', groupId, userId);
  }

  @Mutation(() => Boolean)
  @Allow('user')
  removeProjectMember(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('userId', () => Int) userId: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<boolean> {
    return memberService.remove(ctx, 'project', projectId, userId);
  }
}

/**
 * A group's and a project's member lists as their fields (GitLab's `Group.groupMembers(relations)`,
 * `Project.projectMembers(relations)`): the parent is already visible to the caller, who may read its
 * members as the root member lists allow; batched across the parents of a list.
 */
@Resolver(() => GroupType)
class GroupMembersResolver {
  @FieldResolver(() => MemberPage, {
    description:
      'Members of the group and, by default (relations: [DIRECT, INHERITED]), of its ancestor groups: one entry per user (the highest access level).',
  })
  groupMembers(
    @Root() g: Namespace,
    @Args() args: GroupMemberListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<MemberType>> {
    return ctx.loaders.groupMemberLists.load({ parentId: g.id, args: normalizedMemberListArgs(args) });
  }
}

@Resolver(() => ProjectType)
class ProjectMembersResolver {
  @FieldResolver(() => MemberPage, {
    description:
      "Members of the project and, by default (relations: [DIRECT, INHERITED]), of its group and that group's ancestors; with INVITED_GROUPS and SHARED_INTO_ANCESTORS also of the groups shared with it or its group's ancestry: one entry per user (the highest access level).",
  })
  @Reads('id')
  projectMembers(
    @Root() p: Project,
    @Args() args: ProjectMemberListArgs,
    @Ctx() ctx: RequestCtx,
  ): Promise<Page<MemberType>> {
    return ctx.loaders.projectMemberLists.load({ parentId: p.id, args: normalizedMemberListArgs(args) });
  }
}

export const MemberLinksResolver = { Group: GroupMembersResolver, Project: ProjectMembersResolver };
