import { UploadScalar } from '../../core/graphql/upload-scalar';
import type { UploadedFile } from '../../core/http/uploaded-file';
import { ArgsType, Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import { KeysetArgs, PageArgs } from '../../core/pagination/page';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { Internal } from '../../core/graphql/internal';
import { SortDirection, Visibility } from '../access';
import { CustomAttributeFilter } from '../custom-attributes';

export enum GroupOrderBy {
  NAME = 'NAME',
  PATH = 'PATH',
  ID = 'ID',
}
registerEnumType(GroupOrderBy, { name: 'GroupOrderBy' });

export { CustomAttributeFilter };

/** The filters of GET /groups and GET /groups/:id/subgroups (spec 4.10, 4.11); keyset pagination orders by NAME or ID. */
@ArgsType()
export class GroupFilterArgs extends KeysetArgs(PageArgs, 'NAME or ID') {
  @Field(() => [Int], { nullable: true, description: 'Group ids to leave out.' })
  skipGroups?: number[];

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description:
      'When true, every group the caller can see; when false, only groups the caller is a member of (administrators: every group). Anonymous callers always get the public groups.',
  })
  allAvailable?: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).',
  })
  search?: string;

  @Field(() => GroupOrderBy, { nullable: true, description: 'Default NAME.' })
  orderBy?: GroupOrderBy;

  @Field(() => Boolean, { nullable: true, description: 'Only groups the caller owns.' })
  owned?: boolean;

  @Field(() => [CustomAttributeFilter], { nullable: true, description: 'Administrators only; ignored for others.' })
  customAttributes?: CustomAttributeFilter[];
}

/** GET /groups/:id/subgroups and the subgroup lists: the filters with REST's direction. */
@ArgsType()
export class GroupsArgs extends GroupFilterArgs {
  @Field(() => SortDirection, { nullable: true, description: 'Default ASC.' })
  sort?: SortDirection;
}

/** The instance-wide group list: also top-level groups only (later GitLab's `top_level_only`). */
@ArgsType()
export class GroupListArgs extends GroupFilterArgs {
  // REST's `sort` (asc or desc, with order_by); GraphQL's `sort` is GitLab's `<field>_<direction>` string below.
  @Internal()
  @Field(() => SortDirection, { nullable: true, description: 'Default ASC.' })
  sortDirection?: SortDirection;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description:
      "Sort order of results, GitLab's `<field_name>_<sort_direction>`: name, path, id, created (created_at), updated (updated_at) (`name_asc`, `updated_at_desc`, ...). Another value orders by id, newest first, as GitLab; without it the order is `orderBy` (default NAME), ascending.",
  })
  sort?: string;

  // GitLab's GraphQL name of `owned`: GET /groups keeps `owned`.
  @GraphQLOnly()
  @Field(() => Boolean, { nullable: true, description: 'Only include groups where the caller has the Owner role.' })
  ownedOnly?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only groups without a parent.' })
  topLevelOnly?: boolean;

  // GraphQL only (GitLab's GraphQL `groups(parentPath)`): GET /groups keeps its parameters.
  @Field(() => ID, {
    nullable: true,
    description: 'Only the direct subgroups of the group with this full path (none when the caller may not see it).',
  })
  @GraphQLOnly()
  parentPath?: string;

  // GitLab's `active`: groups here are deleted at once and cannot be archived, so none is pending deletion.
  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description:
      'true: groups not pending deletion; false: only groups pending deletion. Groups are deleted at once here, so that is every group or none (GitLab without delayed deletion).',
  })
  active?: boolean;
}

/** `Group.descendantGroups` (GitLab's arguments): subgroups at any depth the caller may see, by name. */
@ArgsType()
export class DescendantGroupsArgs extends PageArgs {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'All descendants (default); false: direct subgroups only.',
  })
  includeParentDescendants?: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).',
  })
  search?: string;

  @Field(() => Boolean, { nullable: true, description: 'Only groups the caller owns.' })
  owned?: boolean;
}

/** GitLab's NamespaceProjectSort, the values served here (single columns, so connections cut by keyset). */
export enum NamespaceProjectSort {
  ACTIVITY_DESC = 'ACTIVITY_DESC',
  STORAGE_SIZE_ASC = 'STORAGE_SIZE_ASC',
  STORAGE_SIZE_DESC = 'STORAGE_SIZE_DESC',
  REPOSITORY_SIZE_ASC = 'REPOSITORY_SIZE_ASC',
  REPOSITORY_SIZE_DESC = 'REPOSITORY_SIZE_DESC',
}
registerEnumType(NamespaceProjectSort, {
  name: 'NamespaceProjectSort',
  description: "Order of a group's projects (ties by id in the same direction); by id ascending when omitted.",
});

/** `Group.projects`: GitLab's arguments of its projects connection (docs/rest.md#groups). */
@ArgsType()
export class GroupProjectsPageArgs extends PageArgs {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Also the projects of every descendant group.',
  })
  includeSubgroups?: boolean;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'Archived projects too (default, as GitLab); false leaves them out.',
  })
  includeArchived?: boolean;

  @Field(() => String, {
    nullable: true,
    description: "Substring of the name, path or description (case-insensitive), like the projects list's search.",
  })
  search?: string;

  @Field(() => NamespaceProjectSort, { nullable: true })
  sort?: NamespaceProjectSort;
}

@ArgsType()
export class SubgroupsArgs extends GroupsArgs {
  @Field(() => ID, { description: 'Parent group id or full path.' })
  id!: string;
}

/** The writable group attributes: the allow-list of writes (patchEntity) and, derived, the REST parameters. */
@InputType('GroupAttributesInput')
export class GroupAttributesInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) path?: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => Visibility, { nullable: true, description: 'Default on create: private.' }) visibility?: Visibility;
  @Field(() => Boolean, { nullable: true }) lfsEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) requestAccessEnabled?: boolean;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Projects in this group (and its subgroups) may not be shared with other groups.',
  })
  shareWithGroupLock?: boolean;
  @Field(() => UploadScalar, {
    nullable: true,
    description: 'Avatar image: png, jpg, jpeg, gif, bmp, tiff or ico, at most 200 KB.',
  })
  avatar?: UploadedFile;
}

@InputType('UpdateGroupInput')
export class UpdateGroupInput extends GroupAttributesInput {}

@InputType('CreateGroupInput')
export class CreateGroupInput extends UpdateGroupInput {
  @Field(() => String) override name!: string;
  @Field(() => String) override path!: string;
  @Field(() => Int, { nullable: true, description: 'Parent group for a subgroup.' }) parentId?: number;
}
