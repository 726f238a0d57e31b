import { GraphQLScalarType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Resolver = GraphQLFieldResolver<unknown, unknown, Record<string, unknown>>;
type Param = { kind: string; index: number; name?: string; propertyName?: string; getType?: () => unknown };

/** Scalar arguments are passed as graphql coerced them (type-graphql converts only input objects). */
const isScalar = (t: unknown) => t === Number || t === String || t === Boolean || t instanceof GraphQLScalarType;

/**
 * Field resolvers that take only `@Root()`, `@Ctx()`, `@Info()` and scalar `@Arg()`s (the per-row computed fields:
 * a project's URLs, a job's relations) are called directly, without type-graphql's generic wrapper
 * (per call: parameter metadata sorted and mapped, container lookup, middleware dispatch), which
 * would otherwise run once per field of every listed row. Same method, same instance semantics (one
 * stateless instance per resolver class); a root that is not an instance of the declared `@Root()`
 * class still goes through type-graphql, which converts it.
 */
export function leanFieldResolvers(schema: GraphQLSchema, registered: readonly Function[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const resolverClasses = new Set(registered);
  const typeNames = new Map(storage.objectTypes.map((o) => [o.target, o.name]));
  const instances = new Map<Function, Record<string, (...a: unknown[]) => unknown>>();
  for (const fr of storage.fieldResolvers) {
    if (fr.kind !== 'external' || !resolverClasses.has(fr.target) || fr.middlewares?.length || fr.roles?.length)
      continue;
    const objectClass = fr.getObjectType?.();
    const type = objectClass ? schema.getType(typeNames.get(objectClass) ?? '') : undefined;
    const field = isObjectType(type) ? type.getFields()[fr.schemaName] : undefined;
    if (!field || !field.resolve) continue;
    const params = [...((fr.params ?? []) as Param[])].sort((a, b) => a.index - b.index);
    const scalarArg = (p: Param) => p.kind === 'arg' && isScalar(p.getType?.());
    const plain = params.every(
      (p, i) => p.index === i && (['root', 'context', 'info'].includes(p.kind) || scalarArg(p)) && !p.propertyName,
    );
    if (!plain || field.args.length !== params.filter((p) => p.kind === 'arg').length) continue;
    const fallback = field.resolve as Resolver;
    const rootType = params.find((p) => p.kind === 'root')?.getType?.();
    const checkRoot =
      typeof rootType === 'function' && ![Object, String, Number, Boolean].includes(rootType as never)
        ? (rootType as Function)
        : undefined;
    const kinds = params.map((p) => p.kind);
    const argNames = params.map((p) => p.name);
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
    const call: (root: unknown, ctx: unknown, info: unknown, args: Record<string, unknown>) => unknown = (() => {
      switch (kinds.join(',')) {
        case 'root':
          return (root) => fn.call((self ??= instance()), root);
        case 'root,context':
          return (root, ctx) => fn.call((self ??= instance()), root, ctx);
        case 'root,context,info':
          return (root, ctx, info) => fn.call((self ??= instance()), root, ctx, info);
        default:
          return (root, ctx, info, args) =>
            fn.apply(
              (self ??= instance()),
              kinds.map((k, i) =>
                k === 'root' ? root : k === 'context' ? ctx : k === 'info' ? info : args[argNames[i]!],
              ),
            );
      }
    })();
    field.resolve = (root, args, ctx, info) => {
      if (checkRoot && root !== null && root !== undefined && !(root instanceof checkRoot))
        return fallback(root, args, ctx, info);
      return call(root, ctx, info, args);
    };
  }
  return schema;
}
