import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { FEATURE_DEFINITIONS } from './feature-definitions';
import { FEATURE_GROUPS } from './feature-groups';
import { Feature } from './feature.entity';
import { FeatureResolver } from './feature.resolver';
import { featureRoutes } from './feature.rest';
import { seedFeatures } from './feature.seed';
import { isFeatureEnabled } from './feature.service';
import { Migration20261122110100Features } from './migrations/Migration20261122110100_features';
import { Migration20261209090100FeaturesCacheNotify } from './migrations/Migration20261209090100_features_cache_notify';

/** Feature flags (spec 4.35–4.36): the admin API on both surfaces, and the switches core consults. */
export const featuresModule = defineModule({
  name: 'features',
  // By name, as `features` (administrators only).
  nodes: [
    nodeDef<Feature>({
      type: 'Feature',
      gidClass: 'Feature',
      key: 'name',
      load: async (ctx, names) =>
        policy.isAdmin(ctx.user) ? ctx.em.find(Feature, { name: { $in: names.map(String) } }) : [],
    }),
  ],
  entities: [Feature],
  migrations: [
    { name: 'Migration20261122110100_features', class: Migration20261122110100Features },
    { name: 'Migration20261209090100_features_cache_notify', class: Migration20261209090100FeaturesCacheNotify },
  ],
  resolvers: [FeatureResolver],
  routes: featureRoutes,
  seed: [seedFeatures],
  settings: [FEATURE_GROUPS],
  // Core asks before serving optional pages (e.g. 'graphiql'); only flags defined here answer.
  switches: async (ctx, name) =>
    Object.hasOwn(FEATURE_DEFINITIONS, name)
      ? isFeatureEnabled(ctx, name, { user: ctx.tokenInvalid ? null : ctx.user })
      : undefined,
});
