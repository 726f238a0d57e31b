import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
type Param = { kind: string; index: number; propertyName?: string; getType?: () => unknown };

/**
 * Field resolvers that take only `@Root()`, `@Ctx()` and `@Info()` (the per-row computed fields:
 * a project's URLs, a job's relations) are called directly, without type-graphql's generic wrapper
 * (per call: parameter metadata sorted and mapped, container lookup, middleware dispatch). Issue 8:
 * that wrapper ran once per field of every listed row. Same method, same instance semantics (one
 * stateless instance per resolver class); a root that is not an instance of the declared `@Root()`
 * class still goes through type-graphql, which converts it.
 */
export function leanFieldResolvers(schema: GraphQLSchema, registered: readonly Function[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const resolverClasses = new Set(registered);
  const typeNames = new Map(storage.objectTypes.map((o) => [o.target, o.name]));
  const instances = new Map<Function, Record<string, (...a: unknown[]) => unknown>>();
  for (const fr of storage.fieldResolvers) {
    if (fr.kind !== 'external' || !resolverClasses.has(fr.target) || fr.middlewares?.length || fr.roles?.length) continue;
    const objectClass = fr.getObjectType?.();
    const type = objectClass ? schema.getType(typeNames.get(objectClass) ?? '') : undefined;
    const field = isObjectType(type) ? type.getFields()[fr.schemaName] : undefined;
    if (!field || field.args.length || !field.resolve) continue;
    const params = [...((fr.params ?? []) as Param[])].sort((a, b) => a.index - b.index);
    const plain = params.every((p, i) => p.index === i && ['root', 'context', 'info'].includes(p.kind) && !p.propertyName);
    if (!plain) continue;
    const fallback = field.resolve as Resolver;
    const rootType = params.find((p) => p.kind === 'root')?.getType?.();
    const checkRoot = typeof rootType === 'function' && ![Object, String, Number, Boolean].includes(rootType as never) ? (rootType as Function) : undefined;
    const kinds = params.map((p) => p.kind);
    const method = fr.methodName;
    const target = fr.target as new () => Record<string, (...a: unknown[]) => unknown>;
    const instance = () => {
      let i = instances.get(target);
      if (!i) {
        i = new target();
        instances.set(target, i);
      }
      return i;
    };
    let self: Record<string, (...a: unknown[]) => unknown> | undefined;
    const fn = target.prototype[method] as (...a: unknown[]) => unknown;
    // The usual parameter lists get a call without building an argument array per row.
    const call: (root: unknown, ctx: unknown, info: unknown) => unknown = (() => {
      switch (kinds.join(',')) {
        case 'root': return (root) => fn.call((self ??= instance()), root);
        case 'root,context': return (root, ctx) => fn.call((self ??= instance()), root, ctx);
        case 'root,context,info': return (root, ctx, info) => fn.call((self ??= instance()), root, ctx, info);
        default: return (root, ctx, info) => fn.apply((self ??= instance()), kinds.map((k) => (k === 'root' ? root : k === 'context' ? ctx : info)));
      }
    })();
    field.resolve = (root, args, ctx, info) => {
      if (checkRoot && root !== null && root !== undefined && !(root instanceof checkRoot)) return fallback(root, args, ctx, info);
      return call(root, ctx, info);
    };
  }
  return schema;
}
