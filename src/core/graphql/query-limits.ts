import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  isCompositeType,
} from 'graphql';
import { servedPageSize } from '../pagination/page';
import { countOfArgument, isPageItems, isPagedField, maxItemsOf, pageTypeNames, valueCountOf } from './list-bound';
import { textUnitsOf } from './text-cost';

export const MAX_DEPTH = 10;
/** About ten full pages of 30 fields; a cost is the number of field values resolved (see operationCost). */
export const MAX_COMPLEXITY = 30000;
/** `__schema` / `__type`: static, not walked (GraphiQL's introspection nests ofType deeply), fixed cost. */
export const INTROSPECTION_COST = 100;
/**
 * How many response names one list field may have in one selection set (aliases, inline fragments
 * flattened into it): `a: projects … b: projects …`. Each alias loads its own rows, so past a few the
 * aliases only multiply what one request holds.
 */
export const MAX_LIST_ALIASES = 10;

export interface OperationCost {
  depth: number;
  cost: number;
  /** The first list field selected under more than MAX_LIST_ALIASES response names in one selection set. */
  aliasedList?: { field: string };
}

export interface CostOptions {
  /** Called each time a fragment definition is walked (each fragment is walked at most once). */
  onFragmentWalk?: (name: string) => void;
}

/** An integer argument's value: literal or variable (its value, else its default). */
function intArg(
  field: FieldNode,
  name: string,
  variables: Record<string, unknown>,
  defaults: Map<string, ValueNode>,
): number | undefined {
  const arg = field.arguments?.find((a) => a.name.value === name);
  let raw: unknown;
  if (arg?.value.kind === Kind.INT) raw = Number(arg.value.value);
  else if (arg?.value.kind === Kind.VARIABLE) {
    const variable = arg.value.name.value;
    const def = defaults.get(variable);
    raw = variable in variables ? variables[variable] : def?.kind === Kind.INT ? Number(def.value) : undefined;
  }
  return typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : undefined;
}

/** A list argument's length: a literal list, or a variable's array (a single value counts 1, as graphql coerces it). */
function listArgLength(field: FieldNode, name: string, variables: Record<string, unknown>): number | undefined {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (arg?.value.kind === Kind.LIST) return arg.value.values.length;
  if (arg?.value.kind === Kind.VARIABLE) {
    const v = variables[arg.value.name.value];
    return Array.isArray(v) ? v.length : v === undefined || v === null ? undefined : 1;
  }
  return arg ? 1 : undefined;
}

/** Served page size for a field's `first`/`last` or else `perPage` argument, through the same rules as the resolvers. */
function pageSize(field: FieldNode, variables: Record<string, unknown>, defaults: Map<string, ValueNode>): number {
  const [perPage, first, last] = ['perPage', 'first', 'last'].map((n) => intArg(field, n, variables, defaults));
  return servedPageSize({ perPage, first, last });
}

/**
 * Depth and complexity of one operation. Cost counts every selected field (including `__typename`)
 * times the number of times it is resolved: a paged field multiplies its subtree by the page size the
 * resolver will serve (`first` or `last`, else perPage, from a literal or a variable; perPage 0 or
 * negative → 20, above 100 → 100), which bounds both `nodes` and `edges`; any
 * other list of objects by its `limit` argument or else its declared @MaxItems bound (list-bound.ts);
 * a list of leaf values counts as the values it may hold (@MaxItems, or @CostItems where unbounded).
 * Cost is linear in the multiplier, so each fragment is walked once (memoized at multiplier 1) however many times it is spread (spec 4.9 query limits).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
  opts: CostOptions = {},
): OperationCost {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const defaults = new Map<string, ValueNode>();
  for (const v of operation.variableDefinitions ?? [])
    if (v.defaultValue) defaults.set(v.variable.name.value, v.defaultValue);
  const memo = new Map<string, OperationCost>();
  const inProgress = new Set<string>();

  const fragmentCost = (name: string): OperationCost => {
    const known = memo.get(name);
    if (known) return known;
    const frag = fragments.get(name);
    const type = frag && schema.getType(frag.typeCondition.name.value);
    // Unknown or cyclic fragments fail validation before this runs; count them as empty.
    if (!frag || !type || !isCompositeType(type) || inProgress.has(name)) return { depth: 0, cost: 0 };
    inProgress.add(name);
    opts.onFragmentWalk?.(name);
    const result = walk(frag.selectionSet, type);
    inProgress.delete(name);
    memo.set(name, result);
    return result;
  };

  let aliasedList: OperationCost['aliasedList'];
  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType): OperationCost => {
    let depth = 0;
    let cost = 0;
    aliasedList ??= overAliasedList(schema, set, parent);
    for (const sel of set.selections) {
      let inner: OperationCost;
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name === '__schema' || name === '__type') {
          cost += INTROSPECTION_COST;
          continue;
        }
        depth = Math.max(depth, 1);
        const def = 'getFields' in parent ? parent.getFields()[name] : undefined;
        if (!sel.selectionSet || !def) {
          // A leaf value counts 1, a long text its declared size (text-cost.ts); a list of leaf values
          // each value it may serve (list-bound.ts: @MaxItems or @CostItems).
          const values = def && isListType(getNullableType(def.type)) ? Math.max(1, valueCountOf(def) ?? 1) : 1;
          cost += values * (def ? textUnitsOf(def) : 1);
          continue;
        }
        cost += 1;
        const type = getNamedType(def.type);
        if (!isCompositeType(type)) continue;
        const below = walk(sel.selectionSet, type);
        depth = Math.max(depth, below.depth + 1);
        cost += below.cost * fieldMultiplier(sel, def, parent.name);
        continue;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition && schema.getType(sel.typeCondition.name.value);
        inner = walk(sel.selectionSet, cond && isCompositeType(cond) ? cond : parent);
      } else {
        inner = fragmentCost(sel.name.value);
      }
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    }
    return { depth, cost };
  };

  const fieldMultiplier = (field: FieldNode, def: GraphQLField<unknown, unknown>, parentName: string): number => {
    if (isPagedField(def)) return pageSize(field, variables, defaults);
    if (!isListType(getNullableType(def.type))) return 1;
    // A page's `nodes` and `edges` are already counted by its paged field's multiplier.
    if (isPageItems(pageTypes(schema), parentName, field.name.value)) return 1;
    // Every other list of objects declares its bound (list-bound.ts; the schema build checks it).
    const max = maxItemsOf(def);
    if (max === undefined) return MAX_COMPLEXITY + 1;
    // As many items as its list argument has (node ids), up to the bound (beyond it the field answers 400).
    const countOf = countOfArgument(def);
    const count = countOf === undefined ? undefined : listArgLength(field, countOf, variables);
    if (count !== undefined) return Math.min(count, max);
    // A `limit` in range is what the resolver serves; out of range the field answers 400 (servedLimit).
    const limit = intArg(field, 'limit', variables, defaults);
    return limit !== undefined && limit >= 1 && limit < max ? limit : max;
  };

  const root = schema.getRootType(operation.operation);
  if (!root) return { depth: 0, cost: 0 };
  const result = walk(operation.selectionSet, root);
  return aliasedList ? { ...result, aliasedList } : result;
}

/** A list field (paged or not) of `parent` that one selection set names more than MAX_LIST_ALIASES times. */
function overAliasedList(
  schema: GraphQLSchema,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
): OperationCost['aliasedList'] {
  const names = new Map<string, Set<string>>();
  const collect = (s: SelectionSetNode, type: GraphQLCompositeType): OperationCost['aliasedList'] => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition && schema.getType(sel.typeCondition.name.value);
        const found = collect(sel.selectionSet, cond && isCompositeType(cond) ? cond : type);
        if (found) return found;
      } else if (sel.kind === Kind.FIELD) {
        const def = 'getFields' in type ? type.getFields()[sel.name.value] : undefined;
        if (!def || !(isListType(getNullableType(def.type)) || isPagedField(def))) continue;
        const key = `${type.name}.${def.name}`;
        const seen = names.get(key) ?? new Set<string>();
        seen.add((sel.alias ?? sel.name).value);
        names.set(key, seen);
        if (seen.size > MAX_LIST_ALIASES) return { field: def.name };
      }
    }
    return undefined;
  };
  return collect(set, parent);
}

const pageTypeCache = new WeakMap<GraphQLSchema, Set<string>>();

/** Types returned by fields that take `perPage` (GroupPage, ProjectPage, …). */
function pageTypes(schema: GraphQLSchema): Set<string> {
  let set = pageTypeCache.get(schema);
  if (!set) {
    set = pageTypeNames(schema);
    pageTypeCache.set(schema, set);
  }
  return set;
}

/** The limit error for an operation, or undefined when it is within both limits. */
export function queryLimitError(
  cost: OperationCost,
  maxDepth = MAX_DEPTH,
  maxCost = MAX_COMPLEXITY,
): GraphQLError | undefined {
  const http = { status: 400 };
  if (cost.depth > maxDepth)
    return new GraphQLError(`Query depth ${cost.depth} exceeds the maximum of ${maxDepth}`, {
      extensions: { code: 'QUERY_TOO_DEEP', http },
    });
  const listed = cost.aliasedList;
  if (listed)
    return new GraphQLError(
      `Query selects the list field ${listed.field} under more than ${MAX_LIST_ALIASES} aliases in one selection; the maximum is ${MAX_LIST_ALIASES}`,
      { extensions: { code: 'QUERY_TOO_COMPLEX', http } },
    );
  if (cost.cost > maxCost)
    return new GraphQLError(`Query complexity ${cost.cost} exceeds the maximum of ${maxCost}`, {
      extensions: { code: 'QUERY_TOO_COMPLEX', http },
    });
  return undefined;
}
