import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../core/pagination/page';

/** A user's direct membership of a group or project (the member's `id` is the user id, as in GitLab). */
@ObjectType('Member')
export class MemberType {
  @Field(() => Int) id!: number;
  @Field(() => String) username!: string;
  @Field(() => String) name!: string;
  @Field(() => String) state!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => Int) accessLevel!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt!: string | null;
}

export const MemberPage = PageType(MemberType, 'MemberPage');

@ArgsType()
export class MembersArgs extends PageArgs {
  @Field(() => ID, { description: 'Group or project id or full path.' }) sourceId!: string;
  @Field(() => String, { nullable: true, description: 'Substring of the username or name.' }) query?: string;
}

@InputType('UpdateMemberInput')
export class UpdateMemberInput {
  @Field(() => Int, { description: '10 guest, 20 reporter, 30 developer, 40 master, 50 owner (groups only).' }) accessLevel!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

@InputType('MemberInput')
export class MemberInput extends UpdateMemberInput {
  @Field(() => Int) userId!: number;
}
