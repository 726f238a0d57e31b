import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { PageArgs, PageType } from '../../core/pagination/page';

/**
 * Where the memberships of a member list come from (GitLab's `GroupMemberRelation` and
 * `ProjectMemberRelation`; DESCENDANTS is not served). One set of values for both lists.
 */
export enum MemberRelation {
  DIRECT = 'DIRECT',
  INHERITED = 'INHERITED',
  INVITED_GROUPS = 'INVITED_GROUPS',
  SHARED_INTO_ANCESTORS = 'SHARED_INTO_ANCESTORS',
}

/** GitLab's `GroupMemberRelation` (the values served here). */
export enum GroupMemberRelation {
  DIRECT = 'DIRECT',
  INHERITED = 'INHERITED',
}
registerEnumType(GroupMemberRelation, {
  name: 'GroupMemberRelation',
  description: 'Group member relation.',
  valuesConfig: {
    DIRECT: { description: 'Members of the group itself.' },
    INHERITED: { description: "Members of the group's ancestor groups." },
  },
});

/** GitLab's `ProjectMemberRelation` (the values served here). */
export enum ProjectMemberRelation {
  DIRECT = 'DIRECT',
  INHERITED = 'INHERITED',
  INVITED_GROUPS = 'INVITED_GROUPS',
  SHARED_INTO_ANCESTORS = 'SHARED_INTO_ANCESTORS',
}
registerEnumType(ProjectMemberRelation, {
  name: 'ProjectMemberRelation',
  description: 'Project member relation.',
  valuesConfig: {
    DIRECT: { description: 'Members of the project itself.' },
    INHERITED: { description: "Members of the project's group and that group's ancestors." },
    INVITED_GROUPS: {
      description:
        "Members of the groups the project is shared with, and of those groups' ancestors (the caller sees the groups they may see, or all of them as a project member), at most at the share's access level. Listed here; what a share grants is unchanged.",
    },
    SHARED_INTO_ANCESTORS: {
      description:
        "Members of the groups shared with the project's group or its ancestors (the caller sees the groups they may see, or all of them as a member of the project's group), at most at the share's access level. Listing only: group shares grant no access here.",
    },
  },
});

/** GitLab's `MemberSort`: by access level, the user's full name, or when the membership was created or updated. */
export enum MemberSort {
  ACCESS_LEVEL_ASC = 'ACCESS_LEVEL_ASC',
  ACCESS_LEVEL_DESC = 'ACCESS_LEVEL_DESC',
  USER_FULL_NAME_ASC = 'USER_FULL_NAME_ASC',
  USER_FULL_NAME_DESC = 'USER_FULL_NAME_DESC',
  CREATED_ASC = 'CREATED_ASC',
  CREATED_DESC = 'CREATED_DESC',
  UPDATED_ASC = 'UPDATED_ASC',
  UPDATED_DESC = 'UPDATED_DESC',
}
registerEnumType(MemberSort, {
  name: 'MemberSort',
  description: 'Values for sorting members (ties by user, in the same direction).',
  valuesConfig: {
    ACCESS_LEVEL_ASC: { description: 'Access level ascending order.' },
    ACCESS_LEVEL_DESC: { description: 'Access level descending order.' },
    USER_FULL_NAME_ASC: { description: "User's full name ascending order." },
    USER_FULL_NAME_DESC: { description: "User's full name descending order." },
    CREATED_ASC: { description: 'Created at ascending order.' },
    CREATED_DESC: { description: 'Created at descending order.' },
    UPDATED_ASC: { description: 'Updated at ascending order.' },
    UPDATED_DESC: { description: 'Updated at descending order.' },
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

/** The member list of a group or project as a field of it (relations: GroupMemberListArgs, ProjectMemberListArgs). */
@ArgsType()
export class MemberListArgs extends PageArgs {
  /** The relations, normalized by the service (member-list.query.ts `normalizedMemberListArgs`). */
  relations?: MemberRelation[];

  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) search?: string;

  @Field(() => MemberSort, { nullable: true, description: 'Order of the list; by membership when omitted.' })
  sort?: MemberSort;
}

const RELATIONS_DESCRIPTION =
  "Which memberships to list (GitLab's default: DIRECT and INHERITED; null or an empty list is the default too). A user present at several levels appears once, with the highest access level; whether an entry is inherited is its `group` or `project` (the membership's own source), compared with the listed one.";

@ArgsType()
export class GroupMemberListArgs extends MemberListArgs {
  @Field(() => [GroupMemberRelation], {
    nullable: true,
    defaultValue: [GroupMemberRelation.DIRECT, GroupMemberRelation.INHERITED],
    description: RELATIONS_DESCRIPTION,
  })
  declare relations?: MemberRelation[];
}

@ArgsType()
export class ProjectMemberListArgs extends MemberListArgs {
  @Field(() => [ProjectMemberRelation], {
    nullable: true,
    defaultValue: [ProjectMemberRelation.DIRECT, ProjectMemberRelation.INHERITED],
    description: `${RELATIONS_DESCRIPTION} An entry of an invited or shared group shows the level it reaches through the share (GitLab's cap), which may be below the same membership's level in its own group.`,
  })
  declare relations?: MemberRelation[];
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
