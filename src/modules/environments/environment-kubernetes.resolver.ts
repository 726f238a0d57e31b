import { Field, FieldResolver, ID, ObjectType, Resolver } from 'type-graphql';
import { EnvironmentType } from './environment.type';

/** GitLab's Kubernetes agent of a cluster; no agent exists here (Kubernetes is not served), so none is ever answered. */
@ObjectType('ClusterAgent')
export class ClusterAgentType {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
}

/**
 * GitLab's Kubernetes fields of an environment, answered as GitLab answers for an environment without a
 * cluster agent: Kubernetes is not served, and the environment forms refuse a namespace or Flux resource.
 */
@Resolver(() => EnvironmentType)
export class EnvironmentKubernetesResolver {
  @FieldResolver(() => ClusterAgentType, {
    nullable: true,
    description: 'The cluster agent of the environment: none, Kubernetes is not served.',
  })
  clusterAgent(): null {
    return null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The Kubernetes namespace of the environment: none without a cluster agent.',
  })
  kubernetesNamespace(): null {
    return null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The Flux resource path of the environment: none without a Kubernetes namespace.',
  })
  fluxResourcePath(): null {
    return null;
  }
}
