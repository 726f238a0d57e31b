import { defineModule } from '../../core/module/app-module';
import { GroupCustomAttribute } from './group-custom-attribute.entity';
import { Migration20261203100000CustomAttributes } from './migrations/Migration20261203100000_custom_attributes';

/**
 * Custom attributes of users, groups and projects (GitLab's custom attributes API, administrators
 * only): one store with the same rules for each owner kind. The owner modules include the endpoints
 * (`customAttributeEndpoints`), as GitLab's users, groups and projects APIs include
 * CustomAttributesEndpoints, and add the `customAttributes` field to their type. The tables go with
 * their owner (foreign keys, cascade), so a reset of users/namespaces/projects empties them too.
 */
export const customAttributesModule = defineModule({
  name: 'custom-attributes',
  // The groups' table predates this module's migration (the initial one); its entity is mapped here with the others' storage.
  entities: [GroupCustomAttribute],
  migrations: [{ name: 'Migration20261203100000_custom_attributes', class: Migration20261203100000CustomAttributes }],
});

export { customAttributeEndpoints, type CustomAttributeEndpoints } from './custom-attribute.endpoints';
export {
  CUSTOM_ATTRIBUTES_MAX,
  customAttributeFilter,
  customAttributeStore,
  customAttributesOf,
  type CustomAttributeAudit,
} from './custom-attribute.store';
export {
  CustomAttributeFilter,
  CustomAttributeType,
  CustomAttributeWire,
  type KeyValue,
} from './custom-attribute.type';
export { customAttributePolicy } from './custom-attribute.policy';
