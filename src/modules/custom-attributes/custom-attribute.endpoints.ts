import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import type { RequestCtx } from '../../core/context/request-ctx';
import { MaxItems } from '../../core/graphql/list-bound';
import { Reads } from '../../core/graphql/reads';
import type { ParamException, RouteDef } from '../../rest/route';
import {
  CUSTOM_ATTRIBUTES_MAX,
  customAttributeStore as store,
  customAttributesOf,
  type CustomAttributeAudit,
  type CustomAttributeOwner,
} from './custom-attribute.store';
import { customAttributePolicy } from './custom-attribute.policy';
import { CustomAttributeType, CustomAttributeWire, type KeyValue } from './custom-attribute.type';

/** The `customAttributes` field's description, the same on User, Group and Project. */
const FIELD_DESCRIPTION = `Administrators only; null for others. The first ${CUSTOM_ATTRIBUTES_MAX} by key.`;

/** How an owner kind is named and found (404 `<Owner> Not Found` when missing or not visible). */
export interface CustomAttributeOwnerSpec<O extends { id: number }, I extends string | number> {
  owner: CustomAttributeOwner;
  /** GraphQL argument naming the owner: `userId` (Int), `groupId` / `projectId` (ID: id or full path). */
  idArg: string;
  idType: I extends number ? typeof Int : typeof ID;
  find: (ctx: RequestCtx, id: I) => Promise<O>;
  /** The owner's audit entity (writes record their events on it). */
  audit: (ctx: RequestCtx, owner: O) => CustomAttributeAudit | Promise<CustomAttributeAudit>;
  /** The owner's GraphQL object type, which gains `customAttributes`. */
  type: Function;
}

/** What an owner module adds to its definition: resolvers, routes and the field's per-request loader. */
export interface CustomAttributeEndpoints {
  resolvers: Function[];
  routes: RouteDef[];
  loaders: (ctx: RequestCtx) => object;
}

/**
 * GitLab's CustomAttributesEndpoints (lib/api/custom_attributes_endpoints.rb), which users, groups and
 * projects each include: the owner module calls this with how to find its owner and gets four root
 * fields — `userCustomAttributes(userId)`, `userCustomAttribute(userId, key)`, `setUserCustomAttribute(userId,
 * key, value)`, `deleteUserCustomAttribute(userId, key)` (the same for groups and projects) — and the
 * routes `/<owners>/:id/custom_attributes[/:key]` (administrators only).
 */
export function customAttributeEndpoints<O extends { id: number }, I extends string | number>(
  spec: CustomAttributeOwnerSpec<O, I>,
): CustomAttributeEndpoints {
  const { owner, idArg, idType, find, audit } = spec;
  const lower = owner.charAt(0).toLowerCase() + owner.slice(1);
  const loaderName = `${lower}CustomAttributes`;
  const loaderOf = (ctx: RequestCtx) =>
    (ctx.loaders as unknown as Record<string, DataLoader<number, KeyValue[]>>)[loaderName];

  /** `<Owner>.customAttributes`: administrators only, batched per request. */
  @Resolver(() => spec.type)
  class CustomAttributesField {
    @FieldResolver(() => [CustomAttributeType], { nullable: true, description: FIELD_DESCRIPTION })
    @MaxItems(CUSTOM_ATTRIBUTES_MAX)
    @Reads('id')
    customAttributes(@Root() o: { id: number }, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> | null {
      return customAttributePolicy.canSeeCustomAttributes(ctx.user) ? loaderOf(ctx).load(o.id) : null;
    }
  }
  Object.defineProperty(CustomAttributesField, 'name', { value: `${owner}CustomAttributesField` });

  /** The root lookups are REST's (internal view only); GraphQL clients read `<Owner>.customAttributes`. */
  @Resolver()
  class CustomAttributeResolver {
    @Internal()
    @Query(() => [CustomAttributeType], {
      name: `${lower}CustomAttributes`,
      description: `Administrators only. The first ${CUSTOM_ATTRIBUTES_MAX} by key.`,
    })
    @Allow('admin')
    @MaxItems(CUSTOM_ATTRIBUTES_MAX)
    async list(@Arg(idArg, () => idType) id: I, @Ctx() ctx: RequestCtx): Promise<KeyValue[]> {
      return store.list(ctx, owner, (await find(ctx, id)).id);
    }

    @Internal()
    @Query(() => CustomAttributeType, { name: `${lower}CustomAttribute`, description: 'Administrators only.' })
    @Allow('admin')
    async get(
      @Arg(idArg, () => idType) id: I,
      @Arg('key', () => String) key: string,
      @Ctx() ctx: RequestCtx,
    ): Promise<KeyValue> {
      return store.get(ctx, owner, (await find(ctx, id)).id, key);
    }

    @Mutation(() => CustomAttributeType, { name: `set${owner}CustomAttribute`, description: 'Administrators only.' })
    @Allow('admin')
    async set(
      @Arg(idArg, () => idType) id: I,
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
      @Arg(idArg, () => idType) id: I,
      @Arg('key', () => String) key: string,
      @Ctx() ctx: RequestCtx,
    ): Promise<boolean> {
      const found = await find(ctx, id);
      return store.remove(ctx, owner, found.id, key, await audit(ctx, found));
    }
  }
  Object.defineProperty(CustomAttributeResolver, 'name', { value: `${owner}CustomAttributeResolver` });
  return {
    resolvers: [CustomAttributeResolver, CustomAttributesField],
    routes: routesOf(owner, idArg),
    loaders: (ctx) => ({
      [loaderName]: new DataLoader<number, KeyValue[]>((ids) => customAttributesOf(ctx, owner, ids)),
    }),
  };
}

function routesOf(owner: CustomAttributeOwner, idArg: string): RouteDef[] {
  const tag = `${owner.toLowerCase()}s`;
  const base = `/${tag}/:id/custom_attributes`;
  const lower = owner.charAt(0).toLowerCase() + owner.slice(1);
  // An integer id beyond int4 is the owner's 404, as any other unknown id.
  const params: Record<string, ParamException> = { id: { arg: idArg, notFound: owner } };
  return [
    {
      method: 'GET',
      path: base,
      field: `Query.${lower}CustomAttributes`,
      params,
      shape: CustomAttributeWire,
      summary: 'List custom attributes (admin)',
      tag,
    },
    {
      method: 'GET',
      path: `${base}/:key`,
      field: `Query.${lower}CustomAttribute`,
      params,
      shape: CustomAttributeWire,
      summary: 'Get a custom attribute (admin)',
      tag,
    },
    {
      method: 'PUT',
      path: `${base}/:key`,
      field: `Mutation.set${owner}CustomAttribute`,
      params,
      shape: CustomAttributeWire,
      summary: 'Set a custom attribute (admin)',
      tag,
    },
    {
      method: 'DELETE',
      path: `${base}/:key`,
      field: `Mutation.delete${owner}CustomAttribute`,
      params,
      summary: 'Delete a custom attribute (admin)',
      tag,
    },
  ];
}
