import { getNamedType, getNullableType, isCompositeType, isListType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { Extensions } from 'type-graphql';
import { ParamError } from '../errors/domain-errors';

const EXTENSION = 'maxItems';

/**
 * The most items an unpaged list field ever serves (`@MaxItems(100)` on the field or field
 * resolver). Its resolver enforces it (SQL `limit`), and the cost walk (query-limits.ts) multiplies
 * the field's selection by it, so the rows a query is served can never exceed what its complexity
 * was charged for (issue 18, F2). Every list of objects that takes no `perPage` must declare one:
 * `unboundedLists` is checked when the schema is built. A nested list may also take a `limit`
 * argument (1 to the bound, `servedLimit`): the cost walk then counts that many, so a dashboard
 * asking for a few items of each nested list stays within the complexity cap.
 */
export function MaxItems(n: number): MethodDecorator & PropertyDecorator {
  return Extensions({ [EXTENSION]: n });
}

export function maxItemsOf(field: GraphQLField<unknown, unknown>): number | undefined {
  const n = field.extensions?.[EXTENSION];
  return typeof n === 'number' ? n : undefined;
}

/** Paged fields (their `perPage` is the bound) return page types; a page's `nodes` is bounded by it. */
function pageTypeNames(schema: GraphQLSchema): Set<string> {
  const names = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) if (f.args.some((a) => a.name === 'perPage')) names.add(getNamedType(f.type).name);
  }
  return names;
}

/** `Type.field` of every list of objects without perPage and without @MaxItems (must be empty). */
export function unboundedLists(schema: GraphQLSchema): string[] {
  const pages = pageTypeNames(schema);
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) {
      if (!isListType(getNullableType(f.type)) || !isCompositeType(getNamedType(f.type))) continue;
      if (f.args.some((a) => a.name === 'perPage') || (f.name === 'nodes' && pages.has(type.name)) || maxItemsOf(f) !== undefined) continue;
      out.push(`${type.name}.${f.name}`);
    }
  }
  return out;
}

/** The `limit` argument of a bounded list: absent → the bound; outside 1..bound → 400. */
export function servedLimit(limit: number | null | undefined, max: number): number {
  if (limit === undefined || limit === null) return max;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > max) throw new ParamError(`limit must be between 1 and ${max}`);
  return limit;
}

/** The argument's description (one text for every bounded list). */
export const limitDescription = (max: number) => `How many items to serve (1 to ${max}, default ${max}); the query's complexity counts this many.`;

export { pageTypeNames };
