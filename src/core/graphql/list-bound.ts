import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isLeafType,
  isListType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { Extensions } from 'type-graphql';
import { ParamError } from '../errors/domain-errors';

const EXTENSION = 'maxItems';
const COST_EXTENSION = 'costItems';
/** What `@CostItems()` counts a list of values the data does not bound (docs/security.md#bounded-lists). */
export const UNBOUNDED_VALUES_COST = 100;

/**
 * The most items an unpaged list field ever serves (`@MaxItems(100)` on the field or field
 * resolver). Its resolver enforces it (SQL `limit`), and the cost walk (query-limits.ts) multiplies
 * the field's selection by it, so the rows a query is served can never exceed what its complexity
 * was charged for. Every list of objects that takes no `perPage` must declare one:
 * `unboundedLists` is checked when the schema is built. A nested list may also take a `limit`
 * argument (1 to the bound, `servedLimit`): the cost walk then counts that many, so a dashboard
 * asking for a few items of each nested list stays within the complexity cap.
 */
export function MaxItems(n: number, opts: { countOf?: string } = {}): MethodDecorator & PropertyDecorator {
  return Extensions(opts.countOf ? { [EXTENSION]: n, [COUNT_OF_EXTENSION]: opts.countOf } : { [EXTENSION]: n });
}

const COUNT_OF_EXTENSION = 'countOf';

/**
 * The list argument whose length is how many items the field serves (`nodes(ids)`: one per id; set
 * with `@MaxItems(100, { countOf: 'ids' })`): the cost walk counts that many instead of the bound.
 */
export function countOfArgument(field: GraphQLField<unknown, unknown>): string | undefined {
  const a = field.extensions?.[COUNT_OF_EXTENSION];
  return typeof a === 'string' ? a : undefined;
}

export function maxItemsOf(field: GraphQLField<unknown, unknown>): number | undefined {
  const n = field.extensions?.[EXTENSION];
  return typeof n === 'number' ? n : undefined;
}

/**
 * A list of leaf values (strings, enums) whose length nothing bounds (GitLab 10.3 sets no maximum on a
 * runner's tags; admins write the settings' lists): the cost walk counts it as `n` values, a high
 * estimate, since serving it whole is part of the REST answer. Lists with a real bound use @MaxItems.
 */
export function CostItems(n = UNBOUNDED_VALUES_COST): MethodDecorator & PropertyDecorator {
  return Extensions(costItemsExtension(n));
}

/** The field extensions of `@CostItems(n)`, for fields built outside type-graphql (mutation payloads' `errors`). */
export function costItemsExtension(n: number): Record<string, number> {
  return { [COST_EXTENSION]: n };
}

/** How many values a list of leaf values counts for: its @MaxItems bound, else its @CostItems estimate. */
export function valueCountOf(field: GraphQLField<unknown, unknown>): number | undefined {
  const n = field.extensions?.[COST_EXTENSION];
  return maxItemsOf(field) ?? (typeof n === 'number' ? n : undefined);
}

/**
 * A paged field: it takes the connection arguments (`first`, `last`; PageArgs, core/pagination/page.ts),
 * in both views of the schema (the internal view adds `perPage`: views.ts).
 */
export const isPagedField = (f: GraphQLField<unknown, unknown>): boolean => f.args.some((a) => a.name === 'first');

/** Paged fields (their `perPage`, `first` or `last` is the bound) return page types; a page's `nodes` and `edges` are bounded by it. */
function pageTypeNames(schema: GraphQLSchema): Set<string> {
  const names = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) if (isPagedField(f)) names.add(getNamedType(f.type).name);
  }
  return names;
}

/** A page's item lists (`nodes`, `edges`): bounded, and counted, by the paged field that returned the page. */
export const isPageItems = (pages: ReadonlySet<string>, typeName: string, fieldName: string) =>
  (fieldName === 'nodes' || fieldName === 'edges') && pages.has(typeName);

/**
 * `Type.field` of every list of objects without perPage and without @MaxItems, and of every list of
 * leaf values without @MaxItems or @CostItems (must be empty).
 */
export function unboundedLists(schema: GraphQLSchema): string[] {
  const pages = pageTypeNames(schema);
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) {
      if (!isListType(getNullableType(f.type))) continue;
      if (isLeafType(getNamedType(f.type))) {
        if (valueCountOf(f) === undefined) out.push(`${type.name}.${f.name}`);
        continue;
      }
      if (!isCompositeType(getNamedType(f.type))) continue;
      if (isPagedField(f) || isPageItems(pages, type.name, f.name) || maxItemsOf(f) !== undefined) continue;
      out.push(`${type.name}.${f.name}`);
    }
  }
  return out;
}

/** The `limit` argument of a bounded list: absent → the bound; outside 1..bound → 400. */
export function servedLimit(limit: number | null | undefined, max: number): number {
  if (limit === undefined || limit === null) return max;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > max)
    throw new ParamError(`limit must be between 1 and ${max}`);
  return limit;
}

/** The argument's description (one text for every bounded list). */
export const limitDescription = (max: number) =>
  `How many items to serve (1 to ${max}, default ${max}); the query's complexity counts this many.`;

export { pageTypeNames };
