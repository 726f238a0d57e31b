import { Ctx, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { buildInfo } from '../../core/build-info';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MetadataType } from './metadata.type';

const KAS_DISABLED = { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null };

@Resolver(() => MetadataType)
export class MetadataResolver {
  @Query(() => MetadataType, {
    nullable: true,
    description: "The instance's version and revision; null for an anonymous caller (as GitLab's GraphQL API).",
  })
  @Allow('anonymous', { scopes: ['read_user'] })
  metadata(@Ctx() ctx: RequestCtx): MetadataType | null {
    if (!ctx.user) return null;
    const { gitlabVersion, revision } = buildInfo();
    return { version: gitlabVersion, revision, kas: KAS_DISABLED, enterprise: false };
  }
}
