import { defineModule } from '../../core/module/app-module';
import { AccessRequestResolver } from './access-request.resolver';
import { accessRequestRoutes } from './access-request.rest';
import { memberLoaders } from './member.loaders';
import { MemberLinksResolver, MemberResolver } from './member.resolver';
import { memberRestRoutes } from './member.rest';
import { Migration20261203170000AccessRequests } from './migrations/Migration20261203170000_access_requests';

/** The members API of groups and projects (the membership rows belong to the access module), and their access requests. */
export const membersModule = defineModule({
  name: 'members',
  resolvers: [MemberResolver, MemberLinksResolver.Group, MemberLinksResolver.Project, AccessRequestResolver],
  loaders: memberLoaders,
  routes: [...memberRestRoutes, ...accessRequestRoutes],
  migrations: [{ name: 'Migration20261203170000_access_requests', class: Migration20261203170000AccessRequests }],
});
