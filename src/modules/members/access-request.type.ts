import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { PageType } from '../../core/pagination/page';

/**
 * A user asking to join a group or project (GitLab's AccessRequester: UserBasic plus requested_at).
 * Its own global id (gid://gitlab/AccessRequest/<n>): one user asking two groups is two objects in a
 * normalized client cache, each with its own requestedAt. REST's `id` stays the user's (`userId`).
 */
@ObjectType('AccessRequester', { implements: Node })
export class AccessRequesterType extends DatabaseNode {
  @Field(() => ID, {
    description: "The access request's global id, gid://gitlab/AccessRequest/<n> (the user's id is userId).",
  })
  override id!: number;

  @Field(() => Int, { description: "The access request's row id (REST's access requester id is userId)." })
  override databaseId?: number;
  @Field(() => Int, { description: "The requesting user's id." }) userId!: number;
  @Field(() => String) username!: string;
  @Field(() => String) name!: string;
  @Field(() => String) state!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => String) webUrl!: string;
  @Field(() => Date) requestedAt!: Date;
}

export const AccessRequesterPage = PageType(AccessRequesterType, 'AccessRequesterConnection');
