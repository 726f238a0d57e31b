import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  isCompositeType,
  isObjectType,
} from 'graphql';
import { normalizePage } from '../pagination/page';

export const MAX_DEPTH = 10;
/** About ten full pages of 30 fields; a cost is the number of field values resolved (see operationCost). */
export const MAX_COMPLEXITY = 30000;
/** Assumed size of a list field without paging arguments (one default page); see README "Security". */
export const UNPAGED_LIST_SIZE = 20;
/** `__schema` / `__type`: static, not walked (GraphiQL's introspection nests ofType deeply), fixed cost. */
export const INTROSPECTION_COST = 100;

export interface OperationCost {
  depth: number;
  cost: number;
}

export interface CostOptions {
  /** Called each time a fragment definition is walked (each fragment is walked at most once). */
  onFragmentWalk?: (name: string) => void;
}

/** Served page size for a field's `perPage` argument: literal or variable, through the same rules as the resolvers. */
function pageSize(field: FieldNode, variables: Record<string, unknown>, defaults: Map<string, ValueNode>): number {
  const arg = field.arguments?.find((a) => a.name.value === 'perPage');
  let raw: unknown;
  if (arg?.value.kind === Kind.INT) raw = Number(arg.value.value);
  else if (arg?.value.kind === Kind.VARIABLE) {
    const name = arg.value.name.value;
    const def = defaults.get(name);
    raw = name in variables ? variables[name] : def?.kind === Kind.INT ? Number(def.value) : undefined;
  }
  const perPage = typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : undefined;
  return normalizePage({ perPage }).perPage;
}

/**
 * Depth and complexity of one operation. Cost counts every selected field (including `__typename`)
 * times the number of times it is resolved: a paged field multiplies its subtree by the page size the
 * resolver will serve (perPage from a literal or a variable, 0 or negative → 20, above 100 → 100); any
 * other list of objects by UNPAGED_LIST_SIZE. Cost is linear in the multiplier, so each fragment is
 * walked once (memoized at multiplier 1) however many times it is spread (spec 4.9 query limits).
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
  for (const v of operation.variableDefinitions ?? []) if (v.defaultValue) defaults.set(v.variable.name.value, v.defaultValue);
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

  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType): OperationCost => {
    let depth = 0;
    let cost = 0;
    for (const sel of set.selections) {
      let inner: OperationCost;
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name === '__schema' || name === '__type') {
          cost += INTROSPECTION_COST;
          continue;
        }
        cost += 1;
        depth = Math.max(depth, 1);
        const def = 'getFields' in parent ? parent.getFields()[name] : undefined;
        if (!sel.selectionSet || !def) continue;
        const type = getNamedType(def.type);
        if (!isCompositeType(type)) continue;
        const below = walk(sel.selectionSet, type);
        depth = Math.max(depth, below.depth + 1);
        cost += below.cost * fieldMultiplier(sel, def.args.some((a) => a.name === 'perPage'), isListType(getNullableType(def.type)), parent.name);
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

  const fieldMultiplier = (field: FieldNode, paged: boolean, list: boolean, parentName: string): number => {
    if (paged) return pageSize(field, variables, defaults);
    // A page's `nodes` is already counted by its paged field's multiplier.
    if (list && field.name.value === 'nodes' && pageTypes(schema).has(parentName)) return 1;
    return list ? UNPAGED_LIST_SIZE : 1;
  };

  const root = schema.getRootType(operation.operation);
  if (!root) return { depth: 0, cost: 0 };
  return walk(operation.selectionSet, root);
}

const pageTypeCache = new WeakMap<GraphQLSchema, Set<string>>();

/** Types returned by fields that take `perPage` (GroupPage, ProjectPage, …). */
function pageTypes(schema: GraphQLSchema): Set<string> {
  let set = pageTypeCache.get(schema);
  if (set) return set;
  set = new Set();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const f of Object.values(type.getFields())) {
      if (f.args.some((a) => a.name === 'perPage')) set.add(getNamedType(f.type).name);
    }
  }
  pageTypeCache.set(schema, set);
  return set;
}

/** The limit error for an operation, or undefined when it is within both limits. */
export function queryLimitError(cost: OperationCost, maxDepth = MAX_DEPTH, maxCost = MAX_COMPLEXITY): GraphQLError | undefined {
  const http = { status: 400 };
  if (cost.depth > maxDepth) return new GraphQLError(`Query depth ${cost.depth} exceeds the maximum of ${maxDepth}`, { extensions: { code: 'QUERY_TOO_DEEP', http } });
  if (cost.cost > maxCost) return new GraphQLError(`Query complexity ${cost.cost} exceeds the maximum of ${maxCost}`, { extensions: { code: 'QUERY_TOO_COMPLEX', http } });
  return undefined;
}
