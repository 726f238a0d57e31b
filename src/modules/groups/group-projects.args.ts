import { ArgsType, Field, ID } from 'type-graphql';
import { ProjectFilterArgs } from '../projects';

/** GET /groups/:id/projects: GitLab 10.3's projects list filters (GraphQL clients page `Group.projects`). */
@ArgsType()
export class GroupProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'Group id or full path.' })
  id!: string;
}

/** GET /groups/:id/projects/shared (later GitLab): the projects list's filters. */
@ArgsType()
export class GroupSharedProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'Group id or full path.' })
  id!: string;
}
