import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

/** A view over the User entity; private fields (email, isAdmin, …) resolve to null for other callers. */
@ObjectType('User', { implements: Node })
export class UserType extends DatabaseNode {
  @Field(() => String) username!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'active, blocked, banned or deactivated' }) state!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => String) bio!: string;
  @Field(() => String) location!: string;
  @Field(() => String) organization!: string;
  @Field(() => String) skype!: string;
  @Field(() => String) linkedin!: string;
  @Field(() => String) twitter!: string;
  @Field(() => String) websiteUrl!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
}

export const UserPage = PageType(UserType, 'UserConnection');

/** A user's account at an external authentication provider (GitLab's Entities::Identity). */
@ObjectType('Identity')
export class IdentityType {
  @Field(() => String) provider!: string;
  @Field(() => String) externUid!: string;
}

/** Argument type of a User id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const UserIdArg = idArgOf('User');
