import { idArgOf } from '../../core/graphql/global-id';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Visibility } from '../access';
import { GroupInterface } from './group-interface.type';

@ObjectType('GroupStatistics', { description: 'Storage sizes summed over the group’s projects (administrators only).' })
export class GroupStatisticsType {
  @Field(() => Number) storageSize!: number;
  @Field(() => Number) repositorySize!: number;
  @Field(() => Number) lfsObjectsSize!: number;
  @Field(() => Number) jobArtifactsSize!: number;
}

/** A view over the Namespace entity (kind = group); relations resolve through dataloaders. */
@ObjectType('Group', { implements: [Node, GroupInterface] })
export class GroupType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => String) description!: string;
  @Field(() => Visibility) visibility!: Visibility;
  @Field(() => Boolean) lfsEnabled!: boolean;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => Boolean) requestAccessEnabled!: boolean;
  @Field(() => Boolean, {
    description:
      'Projects in this group and its subgroups may not be shared with other groups (GitLab 10.3 accepts it on writes; REST does not show it).',
  })
  shareWithGroupLock!: boolean;
  @Field(() => String) fullName!: string;
  @Field(() => ID, { description: 'Full path of the group (GitLab types it as an ID).' }) fullPath!: string;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { description: 'When the group was last updated (its settings, name, path or parent).' })
  updatedAt!: Date;
}

export const GroupPage = PageType(GroupType, 'GroupConnection');

/** GitLab's `GroupInterfaceConnection` (`adminGroups`): the same groups, read through GroupInterface. */
export const GroupInterfacePage = PageType(GroupInterface, 'GroupInterfaceConnection');

/** Argument type of a Group id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const GroupIdArg = idArgOf('Group');
