import { nodeDef } from '../../core/graphql/node';
import { defineModule } from '../../core/module/app-module';
import {
  AccessRequestResolver,
  GroupAccessRequestsResolver,
  ProjectAccessRequestsResolver,
  accessRequestLoaders,
} from './access-request.resolver';
import { accessRequestRoutes } from './access-request.rest';
import { accessRequestService } from './access-request.service';
import { memberLoaders } from './member.loaders';
import { MemberLinksResolver, MemberResolver } from './member.resolver';
import { memberRestRoutes } from './member.rest';
import { memberService } from './member.service';
import { UserMembershipsResolver } from './user-memberships.resolver';
import { UserMembershipListsResolver, userMembershipListLoaders } from './user-membership-lists';
import type { MemberType } from './member.type';
import { Migration20261203170000AccessRequests } from './migrations/Migration20261203170000_access_requests';

/** The members API of groups and projects (the membership rows belong to the access module), and their access requests. */
export const membersModule = defineModule({
  name: 'members',
  // GitLab's two membership classes share the Member type (their tables have their own id sequences).
  nodes: [
    nodeDef<MemberType>({
      type: 'Member',
      gidClass: 'GroupMember',
      of: (m) => m.sourceType === 'group',
      load: (ctx, ids) => memberService.visibleByIds(ctx, 'group', ids),
    }),
    nodeDef<MemberType>({
      type: 'Member',
      gidClass: 'ProjectMember',
      of: (m) => m.sourceType === 'project',
      load: (ctx, ids) => memberService.visibleByIds(ctx, 'project', ids),
    }),
    // GitLab keeps an access request in the membership row (requested_at set); here it is its own row, so its own class.
    nodeDef({ type: 'AccessRequester', gidClass: 'AccessRequest', load: accessRequestService.visibleByIds }),
  ],
  resolvers: [
    MemberResolver,
    MemberLinksResolver.Group,
    MemberLinksResolver.Project,
    AccessRequestResolver,
    GroupAccessRequestsResolver,
    ProjectAccessRequestsResolver,
    UserMembershipsResolver,
    UserMembershipListsResolver,
  ],
  loaders: [memberLoaders, accessRequestLoaders, userMembershipListLoaders],
  routes: [...memberRestRoutes, ...accessRequestRoutes],
  migrations: [{ name: 'Migration20261203170000_access_requests', class: Migration20261203170000AccessRequests }],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { memberService } from './member.service';
