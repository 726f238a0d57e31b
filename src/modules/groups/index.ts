import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { groupService } from './group.service';
import { groupLoaders } from './group.loaders';
import { GroupResolver } from './group.resolver';
import { ProjectGroupField } from './project-group.resolver';
import { ProjectGroupsResolver } from './project-groups.resolver';
import { GroupSharesResolver, groupShareLoaders } from './group-shares';
import { GroupGroupLink } from './group-group-link.entity';
import { GroupTransferResolver } from './group-transfer';
import { GroupTransferTargetsResolver, groupTransferTargetLoaders } from './group-transfer-targets';
import { ProjectGroupListsResolver, projectGroupListLoaders } from './project-group-lists';
import { UserGroupsResolver, userGroupLoaders } from './user-groups.resolver';
import { groupAvatarDownloads } from './group-avatar';
import { groupAvatarLoaders } from './group-avatar-files';
import { groupRoutes, groupCustomAttributeRoutes } from './group.rest';
import { groupCustomAttributeEndpoints } from './group-custom-attributes';
import { Migration20261203140100GroupsGrowthIndexes } from './migrations/Migration20261203140100_groups_growth_indexes';
import { Migration20261203161000ShareWithGroupLock } from './migrations/Migration20261203161000_share_with_group_lock';
import { Migration20261212090000GroupGroupLinks } from './migrations/Migration20261212090000_group_group_links';
import { Migration20261215090100GroupListOrderIndexes } from './migrations/Migration20261215090100_group_list_order_indexes';
import { AdminGroupsResolver } from './admin-groups.resolver';
import { GroupListFieldsResolver, groupListFieldLoaders } from './group-list-fields.resolver';
import { SharedGroupsResolver, sharedGroupLoaders } from './shared-groups';
import { SharedProjectsResolver, sharedProjectLoaders } from './shared-projects';
import { GroupAutocompleteUsersResolver, groupAutocompleteLoaders } from './group-autocomplete-users';

export const groupsModule = defineModule({
  name: 'groups',
  entities: [GroupGroupLink],
  resolvers: [
    GroupResolver,
    ProjectGroupField,
    ProjectGroupsResolver,
    GroupSharesResolver,
    GroupTransferResolver,
    GroupTransferTargetsResolver,
    ProjectGroupListsResolver,
    UserGroupsResolver,
    AdminGroupsResolver,
    GroupListFieldsResolver,
    SharedGroupsResolver,
    SharedProjectsResolver,
    GroupAutocompleteUsersResolver,
    ...groupCustomAttributeEndpoints.resolvers,
  ],
  routes: [...groupRoutes, ...groupCustomAttributeRoutes],
  loaders: [
    groupLoaders,
    groupShareLoaders,
    groupAvatarLoaders,
    userGroupLoaders,
    groupListFieldLoaders,
    sharedGroupLoaders,
    sharedProjectLoaders,
    groupAutocompleteLoaders,
    groupTransferTargetLoaders,
    projectGroupListLoaders,
    groupCustomAttributeEndpoints.loaders,
  ],
  nodes: [nodeDef({ type: 'Group', gidClass: 'Group', load: groupService.visibleByIds })],
  // GitLab's group avatar URL (readable by whoever may read the group) and GET /groups/:id/avatar.
  downloads: groupAvatarDownloads,
  migrations: [
    { name: 'Migration20261203140100_groups_growth_indexes', class: Migration20261203140100GroupsGrowthIndexes },
    { name: 'Migration20261203161000_share_with_group_lock', class: Migration20261203161000ShareWithGroupLock },
    { name: 'Migration20261212090000_group_group_links', class: Migration20261212090000GroupGroupLinks },
    { name: 'Migration20261215090100_group_list_order_indexes', class: Migration20261215090100GroupListOrderIndexes },
  ],
});

// The door: what other modules may use (docs/architecture.md, "Modules").
export { groupService } from './group.service';
export { GroupPage, GroupType } from './group.type';
export { groupsSharedIntoRows } from './group-shares';
