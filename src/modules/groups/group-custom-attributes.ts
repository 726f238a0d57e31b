import { ID } from 'type-graphql';
import type { Namespace } from '../namespaces';
import { customAttributeEndpoints } from '../custom-attributes';
import { groupService } from './group.service';
import { GroupType } from './group.type';

/** `/groups/:id/custom_attributes`, its root fields and `Group.customAttributes` (GitLab's groups API includes CustomAttributesEndpoints). */
export const groupCustomAttributeEndpoints = customAttributeEndpoints<Namespace, string>({
  owner: 'Group',
  idArg: 'groupId',
  idType: ID,
  find: (ctx, id) => groupService.findVisible(ctx, id),
  audit: (_ctx, g) => ({ entityType: 'Group', entityId: g.id, entityPath: g.fullPath }),
  type: GroupType,
});
