import { ID } from 'type-graphql';
import type { Namespace } from '../namespaces';
import { customAttributeEndpoints } from '../custom-attributes';
import { groupService } from './group.service';

/** `/groups/:id/custom_attributes` and its root fields (GitLab's groups API includes CustomAttributesEndpoints). */
export const groupCustomAttributeEndpoints = customAttributeEndpoints<Namespace, string>({
  owner: 'Group',
  idArg: 'groupId',
  idType: ID,
  find: (ctx, id) => groupService.findVisible(ctx, id),
  audit: (_ctx, g) => ({ entityType: 'Group', entityId: g.id, entityPath: g.fullPath }),
});
