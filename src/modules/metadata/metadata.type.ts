import { Field, ObjectType } from 'type-graphql';

/** GitLab's `Kas` (Types::Metadata::KasType): no agent server here, so it is disabled and the rest is null. */
@ObjectType('Kas', { description: 'The Kubernetes agent server (KAS): not part of this service, always disabled.' })
export class KasType {
  @Field(() => Boolean, { description: 'Whether the Kubernetes agent server is enabled: always false.' })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'URL the agents use to reach KAS: null while disabled.' })
  externalUrl!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "URL Kubernetes tools use to reach KAS's Kubernetes API proxy: null while disabled.",
  })
  externalK8sProxyUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'KAS version: null while disabled.' })
  version!: string | null;
}

/** GitLab's `Metadata` (Types::MetadataType). */
@ObjectType('Metadata', { description: 'The instance: the GitLab version it answers as and the commit it runs.' })
export class MetadataType {
  @Field(() => String, {
    description:
      'The GitLab version whose API this instance answers as, with its own release as semver build metadata (`10.3.0+gitlab-admin.0.2.0`).',
  })
  version!: string;

  @Field(() => String, {
    description: 'The git commit the running release was built from (11 characters), or `unknown`.',
  })
  revision!: string;

  @Field(() => KasType, { description: 'The Kubernetes agent server.' })
  kas!: KasType;

  @Field(() => Boolean, { description: 'Whether this is GitLab Enterprise Edition: false.' })
  enterprise!: boolean;
}
