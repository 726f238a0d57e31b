import { ArgsType, Field, ID } from 'type-graphql';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { ProjectFilterArgs } from '../projects';

@ArgsType()
export class GroupProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'Group id or full path.' })
  id!: string;

  // GraphQL only (GitLab's GraphQL name): GET /groups/:id/projects keeps its parameters.
  @Field(() => Boolean, {
    nullable: true,
    description: 'Also the projects of every descendant group (besides the ones shared with this group).',
  })
  @GraphQLOnly()
  includeSubgroups?: boolean;
}

/** GET /groups/:id/projects/shared (later GitLab): the projects list's filters. */
@ArgsType()
export class GroupSharedProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'Group id or full path.' })
  id!: string;
}
