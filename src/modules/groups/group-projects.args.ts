import { ArgsType, Field, ID } from 'type-graphql';
import { ProjectFilterArgs } from '../projects/project.inputs';

@ArgsType()
export class GroupProjectsArgs extends ProjectFilterArgs {
  @Field(() => ID, { description: 'Group id or full path.' })
  id!: string;
}
