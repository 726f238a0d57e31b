import { GraphQLError, Kind, type ASTVisitor, type DefinitionNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 2000;

interface Walk {
  depth: number;
  cost: number;
}

/**
 * Depth and complexity limits for GraphQL queries: depth counts nested selections; cost counts every
 * selected field, multiplied inside lists by the page size asked for (perPage, default 20).
 */
function walk(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, multiplier: number, seen: Set<string>): Walk {
  let depth = 0;
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      // Introspection (GraphiQL's schema query nests ofType 15 deep) is cheap and static: not counted.
      if (sel.name.value.startsWith('__')) continue;
      cost += multiplier;
      if (sel.selectionSet) {
        const perPage = sel.arguments?.find((a) => a.name.value === 'perPage');
        const factor = perPage && perPage.value.kind === Kind.INT ? Math.min(Number(perPage.value.value), 100) : sel.name.value === 'nodes' ? 1 : 1;
        const isPage = sel.selectionSet.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'nodes');
        const inner = walk(sel.selectionSet, fragments, multiplier * (isPage ? Math.max(factor, perPage ? 1 : 20) : 1), seen);
        depth = Math.max(depth, inner.depth + 1);
        cost += inner.cost;
      } else {
        depth = Math.max(depth, 1);
      }
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const inner = walk(sel.selectionSet, fragments, multiplier, seen);
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    } else {
      const frag = fragments.get(sel.name.value);
      if (frag && !seen.has(frag.name.value)) {
        const inner = walk(frag.selectionSet, fragments, multiplier, new Set([...seen, frag.name.value]));
        depth = Math.max(depth, inner.depth);
        cost += inner.cost;
      }
    }
  }
  return { depth, cost };
}

export function queryLimitsRule(maxDepth = MAX_DEPTH, maxCost = MAX_COMPLEXITY) {
  return (context: ValidationContext): ASTVisitor => ({
    Document(doc) {
      const fragments = new Map(
        doc.definitions.filter((d: DefinitionNode): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
      );
      for (const def of doc.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        const { depth, cost } = walk(def.selectionSet, fragments, 1, new Set());
        if (depth > maxDepth) context.reportError(new GraphQLError(`Query depth ${depth} exceeds the maximum of ${maxDepth}`, { extensions: { code: 'QUERY_TOO_DEEP' } }));
        if (cost > maxCost) context.reportError(new GraphQLError(`Query complexity ${cost} exceeds the maximum of ${maxCost}`, { extensions: { code: 'QUERY_TOO_COMPLEX' } }));
      }
    },
  });
}
