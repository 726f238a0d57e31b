import { ArgsType, Field } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

/** GET /namespaces (https://docs.gitlab.com/ee/api/namespaces.html). */
@ArgsType()
export class NamespacesArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Substring of the name or path (case-insensitive).' })
  search?: string;
}
