import { idArgOf } from '../../core/graphql/global-id';
import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Visibility } from '../access';

@ObjectType('GroupStatistics', { description: 'Storage sizes summed over the group’s projects (administrators only).' })
export class GroupStatisticsType {
  @Field(() => Number) storageSize!: number;
  @Field(() => Number) repositorySize!: number;
  @Field(() => Number) lfsObjectsSize!: number;
  @Field(() => Number) jobArtifactsSize!: number;
}

/** A view over the Namespace entity (kind = group); relations resolve through dataloaders. */
@ObjectType('Group', { implements: Node })
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
  @Field(() => String) fullPath!: string;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
  @Field(() => Date) createdAt!: Date;
}

export const GroupPage = PageType(GroupType, 'GroupConnection');

/** Argument type of a Group id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const GroupIdArg = idArgOf('Group');
