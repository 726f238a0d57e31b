import { nodeDef } from '../../core/graphql/node';
import { defineModule } from '../../core/module/app-module';
import { User } from './user.entity';
import { UserResolver } from './user.resolver';
import { userRoutes } from './user.rest';
import { Identity } from './identity.entity';
import { identityLoaders } from './identity.service';
import { userLoaders } from './user.loaders';
import { UserProjectsResolver } from './user-projects.resolver';
import { UserActivityResolver } from './user-activity.resolver';
import { Migration20261203100100Identities } from './migrations/Migration20261203100100_identities';
import { Migration20261203140200UsersEmailTrgm } from './migrations/Migration20261203140200_users_email_trgm';
import { Migration20261203160000UsersCreatedAt } from './migrations/Migration20261203160000_users_created_at';
import { Migration20261204090100UsersLastActivityOn } from './migrations/Migration20261204090100_users_last_activity_on';

declare module '../../core/context/request-ctx' {
  /** ctx.user is a full User record on both surfaces. */
  interface CurrentUser extends User {}
}

export const usersModule = defineModule({
  name: 'users',
  nodes: [
    nodeDef({ type: 'User', gidClass: 'User', load: (ctx, ids) => ctx.loaders.user.loadPresent(ids.map(Number)) }),
  ],
  entities: [User, Identity],
  resolvers: [UserResolver, UserProjectsResolver, UserActivityResolver],
  routes: userRoutes,
  loaders: (ctx) => ({ ...identityLoaders(ctx), ...userLoaders(ctx) }),
  migrations: [
    { name: 'Migration20261203100100_identities', class: Migration20261203100100Identities },
    { name: 'Migration20261203140200_users_email_trgm', class: Migration20261203140200UsersEmailTrgm },
    { name: 'Migration20261203160000_users_created_at', class: Migration20261203160000UsersCreatedAt },
    { name: 'Migration20261204090100_users_last_activity_on', class: Migration20261204090100UsersLastActivityOn },
  ],
});

// Types other modules use: type-only, so importing them through this door adds no load-order cycle.
export type { User } from './user.entity';
