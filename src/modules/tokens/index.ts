import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { PersonalAccessToken } from './personal-access-token.entity';
import { TokenResolver, UserImpersonationTokensResolver, impersonationTokenLoaders } from './token.resolver';
import { PersonalAccessTokenResolver } from './personal-access-token.resolver';
import { TokenLinksResolver } from './token-links.resolver';
import { tokenRoutes } from './token.rest';
import { Migration20261208090000AuthCacheNotify } from './migrations/Migration20261208090000_auth_cache_notify';
import { Migration20261209090100AuthCacheSettingsEvents } from './migrations/Migration20261209090100_auth_cache_settings_events';
import { ensureRootUser } from './root-user';

export const tokensModule = defineModule({
  name: 'tokens',
  // The administrator from INITIAL_ROOT_TOKEN, once the database is ready (docs/configuration.md).
  atStart: ({ em, logger, initialRootToken }) => ensureRootUser(em, initialRootToken, logger),
  nodes: [
    nodeDef({
      type: 'ImpersonationToken',
      gidClass: 'PersonalAccessToken',
      load: loadByIds(
        PersonalAccessToken,
        (_ctx, t) => t.impersonation,
        (ctx) => policy.isAdmin(ctx.user),
      ),
    }),
    // The same class, a personal token shown by the personal access tokens API (no node lookup).
    nodeDef({
      type: 'PersonalAccessToken',
      gidClass: 'PersonalAccessToken',
      of: (t: PersonalAccessToken) => !t.impersonation,
    }),
  ],
  entities: [PersonalAccessToken],
  resolvers: [TokenResolver, UserImpersonationTokensResolver, PersonalAccessTokenResolver, TokenLinksResolver],
  loaders: impersonationTokenLoaders,
  routes: tokenRoutes,
  migrations: [
    { name: 'Migration20261208090000_auth_cache_notify', class: Migration20261208090000AuthCacheNotify },
    {
      name: 'Migration20261209090100_auth_cache_settings_events',
      class: Migration20261209090100AuthCacheSettingsEvents,
    },
  ],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { ANONYMOUS, authenticateToken, type AuthResult } from './authenticate';
export { applySudo } from './sudo';
export { forgetTokenUseWrites, tokenUseWritesSettled } from './token-use';
