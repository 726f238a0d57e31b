import { defineModule } from '../../core/module/app-module';
import { GroupCustomAttribute } from './group-custom-attribute.entity';
import { groupLoaders } from './group.loaders';
import { GroupResolver } from './group.resolver';
import { groupRoutes } from './group.rest';

export const groupsModule = defineModule({
  name: 'groups', entities: [GroupCustomAttribute], resolvers: [GroupResolver], routes: groupRoutes, loaders: groupLoaders,
});
