import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../core/pagination/page';
import { ProjectType } from '../projects';

/** An environment of a project (spec 2.8); `state` as later GitLab (available / stopped). */
@ObjectType('Environment', { implements: Node })
export class EnvironmentType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'Generated from the name at creation; never changes.' }) slug!: string;
  @Field(() => String, { nullable: true }) externalUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'Description of the environment.' }) description!: string | null;
  @Field(() => String, { description: 'available or stopped' }) state!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
  @Field(() => ProjectType) project!: ProjectType;
}

export const EnvironmentPage = PageType(EnvironmentType, 'EnvironmentConnection');

@ArgsType()
export class EnvironmentsArgs extends PageArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
}

/** Argument type of a Environment id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const EnvironmentIdArg = idArgOf('Environment');
