import { MaxItems } from '../../core/graphql/list-bound';
import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { DatabaseNode, Node } from '../../core/graphql/node';

/** GitLab's namespace entity: a group or a user's personal namespace (a view over the entity). */
@ObjectType('Namespace', {
  implements: Node,
  description:
    "A group (its global id is the group's: `gid://gitlab/Group/7`) or a user's personal namespace (`gid://gitlab/Namespaces::UserNamespace/3`).",
})
export class NamespaceType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => String, { description: 'group or user' }) kind!: string;
  @Field(() => String) fullPath!: string;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
}

export const NamespacePage = PageType(NamespaceType, 'NamespaceConnection');

/** Whether a namespace path is taken, as GitLab's REST `GET /namespaces/:namespace/exists` answers. */
@ObjectType('NamespaceExistence')
export class NamespaceExistenceType {
  @Field(() => Boolean) exists!: boolean;
  @Field(() => [String], {
    description: 'A free path to use instead (the path with a counter); empty when it is free.',
  })
  @MaxItems(1)
  suggests!: string[];
}
