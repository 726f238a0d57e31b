import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { idArgOf } from '../../core/graphql/global-id';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { Internal } from '../../core/graphql/internal';
import { RequiredInPayload } from '../../core/graphql/mutation-payloads';
import { EnvironmentIdArg } from './environment.type';

/** GitLab's description limit (Environment model: `length: { maximum: 10000 }`). */
export const ENVIRONMENT_DESCRIPTION_MAX = 10_000;

/** What both writes set. The Kubernetes fields are GitLab's GraphQL inputs; no cluster agent exists here. */
@InputType('EnvironmentAttributesInput')
export abstract class EnvironmentAttributesInput {
  @Field(() => String, { nullable: true, description: 'http(s) URL; blank clears it.' }) externalUrl?: string;

  @GraphQLOnly()
  @Field(() => String, { nullable: true, description: 'Description of the environment (at most 10,000 characters).' })
  description?: string;

  @GraphQLOnly()
  @Field(() => idArgOf('Clusters::Agent'), {
    nullable: true,
    description:
      'Cluster agent of the environment. Kubernetes is not served here, so no agent exists: the environment gets none, as GitLab for an id it does not find.',
  })
  clusterAgentId?: number;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description: 'Kubernetes namespace: set only with a cluster agent, so refused here unless null.',
  })
  kubernetesNamespace?: string;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description: 'Flux resource path: set only with a Kubernetes namespace, so refused here unless null.',
  })
  fluxResourcePath?: string;
}

@InputType('UpdateEnvironmentInput')
export class UpdateEnvironmentInput extends EnvironmentAttributesInput {
  /** REST renames (GitLab 10.3's PUT); GitLab's GraphQL `environmentUpdate` renames nothing. */
  @Internal()
  @Field(() => String, { nullable: true })
  name?: string;
}

@InputType('CreateEnvironmentInput')
export class CreateEnvironmentInput extends EnvironmentAttributesInput {
  @Field(() => String, { description: 'Name of the environment.' }) name!: string;
}

/**
 * `createEnvironment` (REST's POST /projects/:id/environments: `projectId`) and its payload twin
 * `environmentCreate` (GitLab's `EnvironmentCreateInput { projectPath, name, externalUrl, … }`).
 */
@ArgsType()
export class CreateEnvironmentArgs {
  @Internal()
  @Field(() => ID, { nullable: true, description: 'Project id or full path.' })
  projectId?: string | null;

  @GraphQLOnly()
  @RequiredInPayload()
  @Field(() => ID, { nullable: true, description: 'Full path of the project.' })
  projectPath?: string | null;

  @Field(() => CreateEnvironmentInput) input!: CreateEnvironmentInput;
}

/**
 * The environment a write names: REST's project and environment ids (internal view), or GitLab's
 * global `id` of the environment (`environmentUpdate`, `environmentDelete`, `environmentStop`).
 */
@ArgsType()
export class EnvironmentTargetArgs {
  @Internal()
  @Field(() => ID, { nullable: true, description: 'Project id or full path.' })
  projectId?: string | null;

  @Internal()
  @Field(() => EnvironmentIdArg, { nullable: true })
  environmentId?: number | null;

  @GraphQLOnly()
  @RequiredInPayload()
  @Field(() => EnvironmentIdArg, { nullable: true, description: 'Global ID of the environment.' })
  id?: number | null;
}

/**
 * `updateEnvironment` (REST's PUT /projects/:id/environments/:environment_id) and its payload twin
 * `environmentUpdate` (GitLab's `EnvironmentUpdateInput { id, externalUrl, … }`: the environment's global id).
 */
@ArgsType()
export class UpdateEnvironmentArgs extends EnvironmentTargetArgs {
  @Field(() => UpdateEnvironmentInput) input!: UpdateEnvironmentInput;
}

/** `stopEnvironment` (REST's POST …/stop) and its twin `environmentStop` (GitLab's `EnvironmentStopInput { id, force }`). */
@ArgsType()
export class StopEnvironmentArgs extends EnvironmentTargetArgs {
  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description:
      'Stop without running the on_stop actions (GitLab’s argument): no environment has on_stop actions here, so every stop is forced.',
  })
  force?: boolean | null;
}
