import { ArgsType, Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import { KeysetArgs, PageArgs } from '../../core/pagination/page';
import { SortDirection, Visibility } from '../access/visibility.type';
import { CustomAttributeFilter } from '../custom-attributes/custom-attribute.type';

export enum GroupOrderBy {
  NAME = 'NAME',
  PATH = 'PATH',
  ID = 'ID',
}
registerEnumType(GroupOrderBy, { name: 'GroupOrderBy' });
export const GROUP_ORDER_REST_VALUES = ['name', 'path', 'id'] as const;

export { CustomAttributeFilter };

/** GET /groups and GET /groups/:id/subgroups (spec 4.10, 4.11); keyset pagination orders by NAME or ID. */
@ArgsType()
export class GroupsArgs extends KeysetArgs(PageArgs, 'NAME or ID') {
  @Field(() => [Int], { nullable: true, description: 'Group ids to leave out.' })
  skipGroups?: number[];

  @Field(() => Boolean, { nullable: true, description: 'Every group the caller can see, not only their own.' })
  allAvailable?: boolean;

  @Field(() => String, { nullable: true, description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).' })
  search?: string;

  @Field(() => GroupOrderBy, { nullable: true, description: 'Default NAME.' })
  orderBy?: GroupOrderBy;

  @Field(() => SortDirection, { nullable: true, description: 'Default ASC.' })
  sort?: SortDirection;

  @Field(() => Boolean, { nullable: true, description: 'Only groups the caller owns.' })
  owned?: boolean;

  @Field(() => [CustomAttributeFilter], { nullable: true, description: 'Administrators only; ignored for others.' })
  customAttributes?: CustomAttributeFilter[];
}

/** The instance-wide group list: also top-level groups only (later GitLab's `top_level_only`). */
@ArgsType()
export class GroupListArgs extends GroupsArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only groups without a parent.' })
  topLevelOnly?: boolean;
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
  @Field(() => Boolean, { nullable: true, description: 'Projects in this group (and its subgroups) may not be shared with other groups.' }) shareWithGroupLock?: boolean;
}

@InputType('UpdateGroupInput')
export class UpdateGroupInput extends GroupAttributesInput {}

@InputType('CreateGroupInput')
export class CreateGroupInput extends UpdateGroupInput {
  @Field(() => String) override name!: string;
  @Field(() => String) override path!: string;
  @Field(() => Int, { nullable: true, description: 'Parent group for a subgroup.' }) parentId?: number;
}
