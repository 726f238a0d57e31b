import { defineModule } from '../../core/module/app-module';
import { accessLoaders } from './access.loaders';
import { GroupMember, ProjectMember } from './member.entity';

/** Memberships, access levels, visibility and the object-level policy used by every resource. */
export const accessModule = defineModule({
  name: 'access',
  entities: [GroupMember, ProjectMember],
  loaders: accessLoaders,
});
