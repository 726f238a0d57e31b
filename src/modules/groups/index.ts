import { defineModule } from '../../core/module/app-module';
import { nodeDef } from '../../core/graphql/node';
import { groupService } from './group.service';
import { GroupCustomAttribute } from './group-custom-attribute.entity';
import { groupLoaders } from './group.loaders';
import { GroupResolver } from './group.resolver';
import { groupRoutes } from './group.rest';
import { Migration20261203140100GroupsGrowthIndexes } from './migrations/Migration20261203140100_groups_growth_indexes';
import { Migration20261203161000ShareWithGroupLock } from './migrations/Migration20261203161000_share_with_group_lock';

export const groupsModule = defineModule({
  name: 'groups',
  entities: [GroupCustomAttribute],
  resolvers: [GroupResolver],
  routes: groupRoutes,
  loaders: groupLoaders,
  nodes: [nodeDef({ type: 'Group', gidClass: 'Group', load: groupService.visibleByIds })],
  migrations: [
    { name: 'Migration20261203140100_groups_growth_indexes', class: Migration20261203140100GroupsGrowthIndexes },
    { name: 'Migration20261203161000_share_with_group_lock', class: Migration20261203161000ShareWithGroupLock },
  ],
});
