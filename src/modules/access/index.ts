import { defineModule } from '../../core/module/app-module';
import { GroupMember, ProjectMember } from './member.entity';

/** Memberships (their tables and SQL), access levels and the object-level policy used by every resource. */
export const accessModule = defineModule({
  name: 'access',
  entities: [GroupMember, ProjectMember],
});

// The door of access: what every other module may use (access depends on no other module, so
// importing it from anywhere makes no cycle).
export * from './access-level';
export * from './member.entity';
export * from './policy';
export * from './visibility';
export * from './visibility-sql';
export * from './visibility.type';
export * from './membership-kinds';
export * from './membership-rows';
export * from './membership-sql';
export * from './access-level.type';
export * from './project-sort.type';
