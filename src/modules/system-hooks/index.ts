import { loadByIds, nodeDef } from '../../core/graphql/node';
import { policy } from '../access';
import { defineModule } from '../../core/module/app-module';
import { DELIVERY_SETTINGS, startDelivery } from './delivery';
import { SystemHook } from './system-hook.entity';
import { Migration20261203100000SystemHooks } from './migrations/Migration20261203100000_system_hooks';
import { Migration20261209090100SystemHooksCacheNotify } from './migrations/Migration20261209090100_system_hooks_cache_notify';
import { SystemHookResolver } from './system-hook.resolver';
import { systemHookRoutes } from './system-hook.rest';
import { systemHookService } from './system-hook.service';

/**
 * System hooks (GitLab 10.3 `/hooks`; docs/rest.md#system-hooks): administrators register URLs; the events
 * modules emit (core/events/system-events.ts) are delivered from the outbox by every instance's
 * background task (delivery.ts).
 */
export const systemHooksModule = defineModule({
  name: 'system-hooks',
  nodes: [
    nodeDef({
      type: 'SystemHook',
      gidClass: 'SystemHook',
      load: loadByIds(
        SystemHook,
        () => true,
        (ctx) => policy.isAdmin(ctx.user),
      ),
    }),
    nodeDef({
      type: 'SystemHookLog',
      gidClass: 'WebHookLog',
      ids: 'bigint',
      load: (ctx, ids) => systemHookService.logsByIds(ctx, ids),
    }),
  ],
  entities: [SystemHook],
  migrations: [
    { name: 'Migration20261203100000_system_hooks', class: Migration20261203100000SystemHooks },
    { name: 'Migration20261209090100_system_hooks_cache_notify', class: Migration20261209090100SystemHooksCacheNotify },
  ],
  resolvers: [SystemHookResolver],
  routes: systemHookRoutes,
  sealed: [
    {
      table: 'system_hooks',
      column: 'token_sealed',
      rowKey: 'id',
      // A lost key: the hook's secret token is gone (null); deliveries go on without X-Gitlab-Token.
      resetLost: { note: 'system hooks send no secret token until it is set again (add the hook anew with its token)' },
    },
  ],
  background: (env) => startDelivery(env),
  settings: DELIVERY_SETTINGS,
});
