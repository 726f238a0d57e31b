import type DataLoader from 'dataloader';
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { Reads } from '../../core/graphql/reads';
import {
  CUSTOM_ATTRIBUTES_FIELD_DESCRIPTION,
  CUSTOM_ATTRIBUTES_MAX,
  CustomAttributeType,
  customAttributeEndpoints,
  customAttributeLoader,
  type KeyValue,
} from '../custom-attributes';
import type { User } from './user.entity';
import { userService } from './user.service';
import { UserType } from './user.type';
import { customAttributePolicy } from '../custom-attributes';

/** `/users/:id/custom_attributes` and its root fields (GitLab's users API includes CustomAttributesEndpoints). */
export const userCustomAttributeEndpoints = customAttributeEndpoints<User, number>({
  owner: 'User',
  idArg: 'userId',
  idType: Int,
  find: (ctx, id) => userService.get(ctx, id),
  audit: (_ctx, u) => ({ entityType: 'User', entityId: u.id, entityPath: u.username }),
});

export function userCustomAttributeLoaders(ctx: RequestCtx) {
  return { userCustomAttributes: customAttributeLoader(ctx, 'User') };
}

declare module '../../core/context/loaders' {
  interface Loaders {
    userCustomAttributes: DataLoader<number, KeyValue[]>;
  }
}

/** `User.customAttributes`, as `Group.customAttributes`. */
@Resolver(() => UserType)
export class UserCustomAttributesField {
  @FieldResolver(() => [CustomAttributeType], { nullable: true, description: CUSTOM_ATTRIBUTES_FIELD_DESCRIPTION })
  @MaxItems(CUSTOM_ATTRIBUTES_MAX)
  @Reads('id')
  customAttributes(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> | null {
    return customAttributePolicy.canSeeCustomAttributes(ctx.user) ? ctx.loaders.userCustomAttributes.load(u.id) : null;
  }
}
