import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { PageArgs, PageType } from '../../core/pagination/page';

/**
 * Where a membership in a member list comes from (GitLab's GraphQL `MemberRelation`, subset): the
 * list's own group or project, or a group above it (a group's ancestors; a project's group and its
 * ancestors).
 */
export enum MemberRelation {
  DIRECT = 'DIRECT',
  INHERITED = 'INHERITED',
}
registerEnumType(MemberRelation, {
  name: 'MemberRelation',
  description: 'DIRECT: memberships of the group or project itself; INHERITED: memberships of the groups above it.',
  valuesConfig: {
    DIRECT: { description: 'Members of the group or project itself.' },
    INHERITED: { description: "Members of the ancestor groups (for a project: its group and that group's ancestors)." },
  },
});

export { AccessLevelEnum, AccessLevelType, accessLevelOf } from '../access';
import { AccessLevelType } from '../access';

export type MemberSourceType = 'group' | 'project';

/**
 * One membership of a group or project (GitLab's GraphQL GroupMember / ProjectMember in one type).
 * A Node: `id` is the membership's own global id (core/graphql/node.ts, the members module's `nodes`:
 * `GroupMember` or `ProjectMember` by `sourceType`), so the same user in two lists is two cache
 * entries; rows carry the membership row's id as `id`. `userId` is the user's (REST's member `id`).
 */
@ObjectType('Member', {
  implements: Node,
  description: "A user's membership of a group or project: its own id, the user, the role and where it comes from.",
})
export class MemberType extends DatabaseNode {
  @Field(() => ID, {
    description:
      "The membership's global id, gid://gitlab/GroupMember/<n> or gid://gitlab/ProjectMember/<n> (the user's id is userId, or user { id }).",
  })
  override id!: number;

  @Field(() => Int, {
    description: "The membership row's id (unique per GroupMember / ProjectMember; REST's member id is userId).",
  })
  override databaseId?: number;
  @Field(() => Int, { description: "The member's user id." }) userId!: number;
  @Field(() => String) username!: string;
  @Field(() => String) name!: string;
  @Field(() => String) state!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => AccessLevelType, { description: 'The role, as integer and name.' }) accessLevel!: AccessLevelType;
  @Field(() => Int, { description: 'The role as a plain integer (accessLevel.integerValue).' })
  accessLevelValue!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt!: string | null;
  @Field(() => Date) createdAt!: Date;
  /** Where the membership row lives: the group or project of `group` / `project`. */
  sourceType!: MemberSourceType;
  sourceId!: number;
}

export const MemberPage = PageType(MemberType, 'MemberConnection');

@ArgsType()
export class MembersArgs extends PageArgs {
  @Field(() => ID, { description: 'Group or project id or full path.' }) sourceId!: string;
  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) query?: string;
}

/** The member list of a group or project as a field of it. */
@ArgsType()
export class MemberListArgs extends PageArgs {
  @Field(() => [MemberRelation], {
    nullable: true,
    defaultValue: [MemberRelation.DIRECT, MemberRelation.INHERITED],
    description:
      "Which memberships to list (GitLab's default: DIRECT and INHERITED; null or an empty list is the default too). A user present at several levels appears once, with the highest access level; whether an entry is inherited is its `group` or `project` (the membership's own source), compared with the listed one.",
  })
  relations?: MemberRelation[];

  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) search?: string;
}

@InputType('UpdateMemberInput')
export class UpdateMemberInput {
  @Field(() => Int, { description: '10 guest, 20 reporter, 30 developer, 40 master, 50 owner (groups only).' })
  accessLevel!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

@InputType('MemberInput')
export class MemberInput extends UpdateMemberInput {
  @Field(() => Int) userId!: number;
}
