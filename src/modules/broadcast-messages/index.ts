import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { BroadcastMessage } from './broadcast-message.entity';
import { BroadcastMessageResolver } from './broadcast-message.resolver';
import { broadcastMessageRoutes } from './broadcast-message.rest';
import { seedBroadcastMessages } from './broadcast-message.seed';
import { Migration20261122110000BroadcastMessages } from './migrations/Migration20261122110000_broadcast_messages';

/** Broadcast messages (spec 4.19–4.23): administrators only on both surfaces. */
export const broadcastMessagesModule = defineModule({
  name: 'broadcast-messages',
  nodes: [
    nodeDef({
      type: 'BroadcastMessage',
      gidClass: 'BroadcastMessage',
      load: loadByIds(
        BroadcastMessage,
        () => true,
        (ctx) => policy.isAdmin(ctx.user),
      ),
    }),
  ],
  entities: [BroadcastMessage],
  migrations: [{ name: 'Migration20261122110000_broadcast_messages', class: Migration20261122110000BroadcastMessages }],
  resolvers: [BroadcastMessageResolver],
  routes: broadcastMessageRoutes,
  seed: [seedBroadcastMessages],
});
