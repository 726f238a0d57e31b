import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { groupService } from '../groups/group.service';
import { projectAuditEntity, projectService } from '../projects/project.service';
import { userService } from '../users/user.service';
import type { User } from '../users';
import type { Namespace } from '../namespaces';
import type { Project } from '../projects';
import {
  CUSTOM_ATTRIBUTES_MAX,
  customAttributeStore as store,
  type CustomAttributeAudit,
  type CustomAttributeOwner,
} from './custom-attribute.store';
import { CustomAttributeType, type KeyValue } from './custom-attribute.type';

/** How an owner kind is named and found (404 `<Owner> Not Found` when missing or not visible). */
interface OwnerSpec {
  owner: CustomAttributeOwner;
  /** GraphQL argument naming the owner: `userId` (Int), `groupId` / `projectId` (ID: id or full path). */
  idArg: string;
  idType: typeof Int | typeof ID;
  find: (ctx: RequestCtx, id: never) => Promise<{ id: number }>;
  /** The owner's audit entity (writes record their events on it). */
  audit: (ctx: RequestCtx, owner: never) => CustomAttributeAudit | Promise<CustomAttributeAudit>;
}

export const CUSTOM_ATTRIBUTE_OWNERS: OwnerSpec[] = [
  {
    owner: 'User',
    idArg: 'userId',
    idType: Int,
    find: (ctx, id: number) => userService.get(ctx, id),
    audit: (_ctx, u: User) => ({ entityType: 'User', entityId: u.id, entityPath: u.username }),
  },
  {
    owner: 'Group',
    idArg: 'groupId',
    idType: ID,
    find: (ctx, id: string) => groupService.findVisible(ctx, id),
    audit: (_ctx, g: Namespace) => ({ entityType: 'Group', entityId: g.id, entityPath: g.fullPath }),
  },
  {
    owner: 'Project',
    idArg: 'projectId',
    idType: ID,
    find: (ctx, id: string) => projectService.findVisible(ctx, id),
    audit: (ctx, p: Project) => projectAuditEntity(ctx, p.id),
  },
];

/**
 * The four root fields of one owner kind (GitLab's CustomAttributesEndpoints, included per resource):
 * `userCustomAttributes(userId)`, `userCustomAttribute(userId, key)`, `setUserCustomAttribute(userId,
 * key, value)`, `deleteUserCustomAttribute(userId, key)`; the same for groups and projects.
 */
function customAttributeResolver(spec: OwnerSpec): Function {
  const { owner, idArg, idType } = spec;
  const lower = owner.charAt(0).toLowerCase() + owner.slice(1);
  const find = spec.find as (ctx: RequestCtx, id: string | number) => Promise<{ id: number }>;
  const audit = spec.audit as (
    ctx: RequestCtx,
    owner: { id: number },
  ) => CustomAttributeAudit | Promise<CustomAttributeAudit>;

  @Resolver()
  class CustomAttributeResolver {
    @Query(() => [CustomAttributeType], {
      name: `${lower}CustomAttributes`,
      description: `Administrators only. The first ${CUSTOM_ATTRIBUTES_MAX} by key.`,
    })
    @Allow('admin')
    @MaxItems(CUSTOM_ATTRIBUTES_MAX)
    async list(@Arg(idArg, () => idType) id: string | number, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> {
      return store.list(ctx, owner, (await find(ctx, id)).id);
    }

    @Query(() => CustomAttributeType, { name: `${lower}CustomAttribute`, description: 'Administrators only.' })
    @Allow('admin')
    async get(
      @Arg(idArg, () => idType) id: string | number,
      @Arg('key', () => String) key: string,
      @Ctx() ctx: RequestCtx,
    ): Promise<KeyValue> {
      return store.get(ctx, owner, (await find(ctx, id)).id, key);
    }

    @Mutation(() => CustomAttributeType, { name: `set${owner}CustomAttribute`, description: 'Administrators only.' })
    @Allow('admin')
    async set(
      @Arg(idArg, () => idType) id: string | number,
      @Arg('key', () => String) key: string,
      @Arg('value', () => String) value: string,
      @Ctx() ctx: RequestCtx,
    ): Promise<KeyValue> {
      const found = await find(ctx, id);
      return store.set(ctx, owner, found.id, key, value, await audit(ctx, found));
    }

    @Mutation(() => Boolean, { name: `delete${owner}CustomAttribute`, description: 'Administrators only.' })
    @Allow('admin')
    async remove(
      @Arg(idArg, () => idType) id: string | number,
      @Arg('key', () => String) key: string,
      @Ctx() ctx: RequestCtx,
    ): Promise<boolean> {
      const found = await find(ctx, id);
      return store.remove(ctx, owner, found.id, key, await audit(ctx, found));
    }
  }
  Object.defineProperty(CustomAttributeResolver, 'name', { value: `${owner}CustomAttributeResolver` });
  return CustomAttributeResolver;
}

export const customAttributeResolvers = CUSTOM_ATTRIBUTE_OWNERS.map(customAttributeResolver);
