import type { RequestCtx } from '../../core/context/request-ctx';
import { UnauthenticatedError } from '../../core/errors/domain-errors';
import { defineRoutes } from '../../rest/route';
import { MetadataWire, VersionWire } from './metadata.presenter';

const tag = 'metadata';
// REST keeps GitLab's 401 for an anonymous caller (`before { authenticate! }`); GraphQL answers null.
const requireCaller = async (ctx: RequestCtx): Promise<void> => {
  if (!ctx.user) throw new UnauthenticatedError();
};

/** GitLab's lib/api/version.rb (10.3) and lib/api/metadata.rb (15.2), both on Query.metadata. */
export const metadataRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/version',
    field: 'Query.metadata',
    filter: requireCaller,
    gate: requireCaller,
    shape: VersionWire,
    summary: 'The GitLab version this instance answers as and the commit it runs (any authenticated user)',
    tag,
  },
  {
    method: 'GET',
    path: '/metadata',
    field: 'Query.metadata',
    filter: requireCaller,
    gate: requireCaller,
    shape: MetadataWire,
    summary: 'Version, revision, KAS (disabled) and edition of the instance (any authenticated user)',
    tag,
  },
]);
