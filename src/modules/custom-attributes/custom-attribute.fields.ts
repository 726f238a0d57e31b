import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { Reads } from '../../core/graphql/reads';
import { policy } from '../access';
import type { Project } from '../projects';
import { ProjectType } from '../projects/project.type';
import type { User } from '../users';
import { UserType } from '../users/user.type';
import { CUSTOM_ATTRIBUTES_MAX, customAttributesOf } from './custom-attribute.store';
import { CustomAttributeType, type KeyValue } from './custom-attribute.type';

/** Per-request batches of the users' and projects' attributes (the groups' is in the groups module). */
export function customAttributeLoaders(ctx: RequestCtx) {
  return {
    userCustomAttributes: new DataLoader<number, KeyValue[]>((ids) => customAttributesOf(ctx, 'User', ids)),
    projectCustomAttributes: new DataLoader<number, KeyValue[]>((ids) => customAttributesOf(ctx, 'Project', ids)),
  };
}

type CustomAttributeLoaders = ReturnType<typeof customAttributeLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends CustomAttributeLoaders {}
}

const DESCRIPTION = `Administrators only; null for others. The first ${CUSTOM_ATTRIBUTES_MAX} by key.`;

/** `User.customAttributes`, as `Group.customAttributes`. */
@Resolver(() => UserType)
export class UserCustomAttributesField {
  @FieldResolver(() => [CustomAttributeType], { nullable: true, description: DESCRIPTION })
  @MaxItems(CUSTOM_ATTRIBUTES_MAX)
  @Reads('id')
  customAttributes(@Root() u: User, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> | null {
    return policy.canSeeCustomAttributes(ctx.user) ? ctx.loaders.userCustomAttributes.load(u.id) : null;
  }
}

/** `Project.customAttributes`, as `Group.customAttributes`. */
@Resolver(() => ProjectType)
export class ProjectCustomAttributesField {
  @FieldResolver(() => [CustomAttributeType], { nullable: true, description: DESCRIPTION })
  @MaxItems(CUSTOM_ATTRIBUTES_MAX)
  @Reads('id')
  customAttributes(@Root() p: Project, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> | null {
    return policy.canSeeCustomAttributes(ctx.user) ? ctx.loaders.projectCustomAttributes.load(p.id) : null;
  }
}
