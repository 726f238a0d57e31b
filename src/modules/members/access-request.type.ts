import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

/** A user asking to join a group or project (GitLab's AccessRequester: UserBasic plus requested_at). */
@ObjectType('AccessRequester')
export class AccessRequesterType {
  @Field(() => Int) id!: number;
  @Field(() => String) username!: string;
  @Field(() => String) name!: string;
  @Field(() => String) state!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => Date) requestedAt!: Date;
}

export const AccessRequesterPage = PageType(AccessRequesterType, 'AccessRequesterPage');
