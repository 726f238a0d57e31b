import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
// Provides the key_destroy events of a user's removal (core/events/system-event-catalogue.ts).
import './key.events';
import { defineModule } from '../../core/module/app-module';
import { SshKey } from './key.entity';
import { SshKeyResolver, SshKeyWithUserResolver, UserSshKeysResolver, sshKeyLoaders } from './key.resolver';
import { sshKeyRoutes } from './key.rest';
import { Migration20261204120000Keys } from './migrations/Migration20261204120000_keys';
import { Migration20261204120200KeysFingerprintSha256 } from './migrations/Migration20261204120200_keys_fingerprint_sha256';

/** SSH keys of users (GitLab 10.3's /users/:id/keys, /user/keys, /keys/:id). */
export const keysModule = defineModule({
  name: 'keys',
  nodes: [
    nodeDef({
      type: 'SshKey',
      gidClass: 'Key',
      load: loadByIds(
        SshKey,
        (ctx, k) => policy.isAdmin(ctx.user) || k.userId === ctx.user?.id,
        (ctx) => !!ctx.user,
      ),
    }),
    nodeDef({ type: 'SshKeyWithUser', gidClass: 'Key' }),
  ],
  entities: [SshKey],
  migrations: [
    { name: 'Migration20261204120000_keys', class: Migration20261204120000Keys },
    { name: 'Migration20261204120200_keys_fingerprint_sha256', class: Migration20261204120200KeysFingerprintSha256 },
  ],
  resolvers: [SshKeyResolver, SshKeyWithUserResolver, UserSshKeysResolver],
  loaders: sshKeyLoaders,
  routes: sshKeyRoutes,
});
