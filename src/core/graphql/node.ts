import DataLoader from 'dataloader';
import type { EntityClass } from '@mikro-orm/core';
import { lightEntitiesById } from '../db/sql';
import { isInterfaceType, isObjectType, type GraphQLField, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { Arg, Ctx, Field, ID, Info, Int, InterfaceType, ObjectType, Query, Resolver } from 'type-graphql';
import { Allow } from '../auth/allow';
import type { RequestCtx } from '../context/request-ctx';
import { ParamError } from '../errors/domain-errors';
import { databaseIdOf, globalIdOf, parseGlobalId, shown, type GlobalId, type IdWidth } from './global-id';
import { MaxItems } from './list-bound';
import { markPropertyRead } from './property-reads';

/**
 * Global ids and `node`/`nodes` (docs/graphql.md#global-ids-and-lookups; GitLab's and Relay's `Node`
 * interface). Each module declares, per object type, its GitLab class and how to load visible rows
 * by key (AppModule.nodes); core computes `id` (the gid) and `databaseId` for those types, resolves
 * `node(id)`/`nodes(ids)` through the loaders (one statement per class and request), and REST keeps
 * numeric ids by selecting `databaseId` where a wire shape names `id` (src/rest/route-document.ts),
 * which its compiled documents read as the row's `id` property (views.ts, `executionView`).
 */
@InterfaceType('Node', {
  description: 'An object with a global id (`gid://gitlab/<Class>/<id>`), fetchable with `node(id)` and `nodes(ids)`.',
})
export abstract class Node {
  @Field(() => ID, { description: 'Global id: `gid://gitlab/<Class>/<id>`, unique across types and stable.' })
  id!: string;
}

/**
 * Base class of an object type with a database id: `@ObjectType('Group', { implements: Node })
 * class GroupType extends DatabaseNode`. Rows keep their numeric `id`; `id` answers the gid and
 * `databaseId` the number (GitHub's name for it; GitLab's own types show it only on a few).
 */
@ObjectType('DatabaseNode') // a base class only: type-graphql 2 emits no type no field returns
export abstract class DatabaseNode {
  @Field(() => ID, { description: 'Global id: `gid://gitlab/<Class>/<id>`, unique across types and stable.' })
  id!: number;

  /** Resolved from the row's `id` (rows do not carry it). */
  @Field(() => Int, { description: 'The numeric database id (the id REST shows).' })
  databaseId?: number;
}

/** Loads the rows with these keys that the caller may see (one statement; missing and invisible ones left out). */
export type NodeLoad<Row> = (ctx: RequestCtx, keys: readonly (number | string)[]) => Promise<Row[]>;

export interface NodeDef<Row extends object = object> {
  /** The GraphQL object type (implements Node). */
  type: string;
  /** GitLab's model class in the gid (`Ci::Runner`). */
  gidClass: string;
  /** Where one type shows rows of several classes (Namespace: groups and user namespaces): the rows of this class. */
  of?: (row: Row) => boolean;
  /** What the gid's last segment holds: the row's `id` (default) or its `name` (Feature). */
  key?: 'id' | 'name';
  /** The width of the `id` key: int4 (default) or a bigint column (audit events), core/graphql/global-id.ts. */
  ids?: IdWidth;
  /** `node(id)` / `nodes(ids)`: absent when another def of the same class loads (Namespace rows of groups: Group's). */
  load?: NodeLoad<Row>;
}

/** One def of a module's type (keeps the row type of `of` and `load` checked at the declaration). */
export function nodeDef<Row extends object>(def: NodeDef<Row>): NodeDef {
  return def as unknown as NodeDef;
}

/**
 * The usual loader: rows by primary key (one statement, core/db/sql.ts `lightEntitiesById`) that the
 * caller may read, asked only when `asked(ctx)` (admin-only types skip the statement for others).
 */
export function loadByIds<Row extends object>(
  entity: EntityClass<Row>,
  may: (ctx: RequestCtx, row: Row) => boolean | Promise<boolean>,
  asked: (ctx: RequestCtx) => boolean = () => true,
): NodeLoad<Row> {
  return async (ctx, keys) => {
    if (!asked(ctx)) return [];
    const rows = await lightEntitiesById(ctx.em, entity, keys.map(Number));
    const allowed = await Promise.all(rows.map((r) => may(ctx, r)));
    return rows.filter((_, i) => allowed[i]);
  };
}

export const MAX_NODES = 100;

/** Type name of the rows node/nodes served (Node.resolveType); rows are entity instances, not type-class instances. */
const nodeTypes = new WeakMap<object, string>();

interface Registry {
  byClass: Map<string, NodeDef>;
  byType: Map<string, NodeDef[]>;
}
/**
 * By the schema's Node interface type: later schema transforms (the mutation payload twins) build a new
 * GraphQLSchema around the same type objects, so the registry follows the types, not one schema object.
 */
const registries = new WeakMap<object, Registry>();
const registryOfSchema = (schema: GraphQLSchema): Registry => registries.get(schema.getType('Node')!)!;

/** A view of the schema (views.ts) builds its own Node interface: it serves the same registry. */
export function shareNodeRegistry(from: GraphQLSchema, to: GraphQLSchema): void {
  const node = to.getType('Node');
  if (node) registries.set(node, registryOfSchema(from));
}

const keyOf = (def: NodeDef, row: object): unknown => (row as Record<string, unknown>)[def.key ?? 'id'];

/** What node.ts reads of a module (core/module/app-module.ts: AppModule.nodes). */
type WithNodes = { nodes?: NodeDef[] };

function registryOf(modules: readonly WithNodes[]): Registry {
  const byClass = new Map<string, NodeDef>();
  const byType = new Map<string, NodeDef[]>();
  for (const def of modules.flatMap((m) => m.nodes ?? [])) {
    byType.set(def.type, [...(byType.get(def.type) ?? []), def]);
    if (!def.load) continue;
    if (byClass.has(def.gidClass)) throw new Error(`two modules load ${def.gidClass} nodes`);
    byClass.set(def.gidClass, def);
  }
  return { byClass, byType };
}

type Row = Record<string, unknown>;

/**
 * At schema build: every type implementing Node gets its `id` resolver (the gid, computed only when
 * `id` is selected) and `databaseId` (the row's id). A Node type no module declares, or a declared
 * class nothing loads, stops the start-up.
 */
export function globalIds(schema: GraphQLSchema, modules: readonly WithNodes[]): GraphQLSchema {
  const registry = registryOf(modules);
  const node = schema.getType('Node');
  if (node) registries.set(node, registry);
  // Synchronous (type-graphql wraps its `resolveType` option in an async function graphql-jit does not await).
  if (isInterfaceType(node)) node.resolveType = (value) => nodeTypes.get(value as object);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !node || !type.getInterfaces().some((i) => i.name === 'Node')) continue;
    const defs = registry.byType.get(type.name);
    if (!defs?.length)
      throw new Error(`type ${type.name} implements Node but no module declares its global id (AppModule.nodes)`);
    for (const def of defs)
      if (!registry.byClass.has(def.gidClass))
        throw new Error(`no module loads ${def.gidClass} nodes (AppModule.nodes, load)`);
    const fields = type.getFields();
    const [first] = defs;
    const classOf =
      defs.length === 1
        ? () => first.gidClass
        : (row: Row) => (defs.find((d) => d.of?.(row as never)) ?? first).gidClass;
    const key = first.key ?? 'id';
    // A per-row class reads what `of` reads: no `reads` then (nested lists select every column).
    setResolver(
      fields.id,
      (row) => globalIdOf(classOf(row), row[key] as string | number),
      defs.length === 1 ? [key] : undefined,
    );
    if (fields.databaseId) {
      setResolver(fields.databaseId, (row) => row.id, ['id']);
      // REST executes it as the plain read it is (property-reads.ts): no call per row.
      markPropertyRead(fields.databaseId, 'id');
    }
  }
  return schema;
}

function setResolver(
  field: GraphQLField<unknown, unknown> | undefined,
  resolve: (row: Row) => unknown,
  reads: string[] | undefined,
): void {
  if (!field) return;
  field.resolve = (row) => resolve(row as Row);
  // core/graphql/reads.ts: what nested lists must select for these fields.
  if (reads) (field as { extensions: Record<string, unknown> }).extensions = { ...field.extensions, reads };
}

const loaders = new WeakMap<RequestCtx, Map<string, DataLoader<number | string, object | null>>>();

/** Per request and class: every node/nodes field of the request batched into one load. */
function loaderOf(ctx: RequestCtx, def: NodeDef): DataLoader<number | string, object | null> {
  let byClass = loaders.get(ctx);
  if (!byClass) loaders.set(ctx, (byClass = new Map()));
  let loader = byClass.get(def.gidClass);
  if (!loader) {
    loader = new DataLoader(async (keys) => {
      const rows = await def.load!(ctx, keys);
      const found = new Map(rows.map((r) => [String(keyOf(def, r)), r]));
      return keys.map((k) => found.get(String(k)) ?? null);
    });
    byClass.set(def.gidClass, loader);
  }
  return loader;
}

function checkedGlobalId(registry: Registry, id: string): GlobalId {
  const gid = parseGlobalId(id);
  if (!gid) throw new ParamError(`${shown(id)} is not a global id (gid://gitlab/<Class>/<id>)`);
  const def = registry.byClass.get(gid.gidClass);
  if (!def) throw new ParamError(`${shown(id)}: no type has global ids of class ${gid.gidClass}`);
  if ((def.key ?? 'id') === 'id' && !/^\d+$/.test(gid.key))
    throw new ParamError(`${shown(id)} is not a global id: ${gid.gidClass} ids are numbers`);
  return gid;
}

/** The row a gid names if the caller may see it, else null; a malformed gid or unknown class is BAD_USER_INPUT. */
async function resolveNode(ctx: RequestCtx, registry: Registry, id: string): Promise<object | null> {
  const gid = checkedGlobalId(registry, id);
  const def = registry.byClass.get(gid.gidClass)!;
  const key = (def.key ?? 'id') === 'id' ? databaseIdOf(gid.key, def.ids) : gid.key;
  if (key === undefined) return null; // beyond the id width: no such row (checkedGlobalId refused non-digits)
  const row = await loaderOf(ctx, def).load(key);
  if (row) nodeTypes.set(row, def.type);
  return row;
}

@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description: 'The object with this global id, or null when it does not exist or the caller may not see it.',
  })
  @Allow('anonymous')
  node(
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<object | null> {
    return resolveNode(ctx, registryOfSchema(info.schema), id);
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: `The objects with these global ids, in their order (null for each one missing or not visible); at most ${MAX_NODES} ids.`,
  })
  @Allow('anonymous')
  @MaxItems(MAX_NODES, { countOf: 'ids' })
  nodes(
    @Arg('ids', () => [ID]) ids: string[],
    @Ctx() ctx: RequestCtx,
    @Info() info: GraphQLResolveInfo,
  ): Promise<(object | null)[]> {
    if (ids.length > MAX_NODES) throw new ParamError(`ids: at most ${MAX_NODES} ids per request (${ids.length} given)`);
    const registry = registryOfSchema(info.schema);
    // Every id is checked before anything loads: one malformed id fails the field.
    for (const id of ids) checkedGlobalId(registry, id);
    return Promise.all(ids.map((id) => resolveNode(ctx, registry, id)));
  }
}
