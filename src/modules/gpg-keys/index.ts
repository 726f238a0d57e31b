import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { GpgKey } from './gpg-key.entity';
import { GpgKeyResolver, UserGpgKeysResolver, gpgKeyLoaders } from './gpg-key.resolver';
import { gpgKeyRoutes } from './gpg-key.rest';
import { Migration20261204110000GpgKeys } from './migrations/Migration20261204110000_gpg_keys';

/** GPG keys of users (GitLab 10.3's users API): administrators for any user, everyone for their own. */
export const gpgKeysModule = defineModule({
  name: 'gpg-keys',
  nodes: [
    nodeDef({
      type: 'GpgKey',
      gidClass: 'GpgKey',
      load: loadByIds(
        GpgKey,
        (ctx, k) => policy.isAdmin(ctx.user) || k.userId === ctx.user?.id,
        (ctx) => !!ctx.user,
      ),
    }),
  ],
  entities: [GpgKey],
  migrations: [{ name: 'Migration20261204110000_gpg_keys', class: Migration20261204110000GpgKeys }],
  resolvers: [GpgKeyResolver, UserGpgKeysResolver],
  loaders: gpgKeyLoaders,
  routes: gpgKeyRoutes,
});
