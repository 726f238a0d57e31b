import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

/** GitLab's namespace entity: a group or a user's personal namespace (a view over the entity). */
@ObjectType('Namespace')
export class NamespaceType {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => String, { description: 'group or user' }) kind!: string;
  @Field(() => String) fullPath!: string;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
}

export const NamespacePage = PageType(NamespaceType, 'NamespacePage');
