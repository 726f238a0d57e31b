import { defineModule } from '../../core/module/app-module';
import { customAttributeResolvers } from './custom-attribute.resolver';
import {
  ProjectCustomAttributesField,
  UserCustomAttributesField,
  customAttributeLoaders,
} from './custom-attribute.fields';
import { customAttributeRoutes } from './custom-attribute.rest';
import { Migration20261203100000CustomAttributes } from './migrations/Migration20261203100000_custom_attributes';

/**
 * Custom attributes of users, groups and projects (GitLab's custom attributes API, administrators
 * only): one store, one resolver and one route set per owner kind (custom-attribute.resolver.ts).
 * Their tables go with their owner (foreign keys, cascade), so a reset of users/namespaces/projects
 * empties them too.
 */
export const customAttributesModule = defineModule({
  name: 'custom-attributes',
  migrations: [{ name: 'Migration20261203100000_custom_attributes', class: Migration20261203100000CustomAttributes }],
  resolvers: [...customAttributeResolvers, UserCustomAttributesField, ProjectCustomAttributesField],
  loaders: customAttributeLoaders,
  routes: customAttributeRoutes,
});

// Types other modules use: type-only, so importing them through this door adds no load-order cycle.
export type { KeyValue } from './custom-attribute.type';
