import { Int } from 'type-graphql';
import { customAttributeEndpoints } from '../custom-attributes';
import type { User } from './user.entity';
import { userService } from './user.service';
import { UserType } from './user.type';

/** `/users/:id/custom_attributes`, its root fields and `User.customAttributes` (GitLab's users API includes CustomAttributesEndpoints). */
export const userCustomAttributeEndpoints = customAttributeEndpoints<User, number>({
  owner: 'User',
  idArg: 'userId',
  idType: Int,
  find: (ctx, id) => userService.get(ctx, id),
  audit: (_ctx, u) => ({ entityType: 'User', entityId: u.id, entityPath: u.username }),
  type: UserType,
});
