import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The field names selected `path` levels below the resolving field (through inline and named
 * fragments), e.g. `selectedFields(info, ['nodes'])` in a page resolver. Lets a list preload only
 * the relations its selection asks for, for REST documents and GraphQL queries alike.
 */
export function selectedFields(
  info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>,
  path: readonly string[] = [],
): Set<string> {
  const out = new Set<string>();
  const fragments = info.fragments as Record<string, FragmentDefinitionNode> | undefined;
  const walk = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>) => {
    if (!set) return;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (depth === path.length) out.add(sel.name.value);
        else if (sel.name.value === path[depth]) walk(sel.selectionSet, depth + 1, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, depth, seen);
      } else if (!seen.has(sel.name.value)) {
        walk(fragments?.[sel.name.value]?.selectionSet, depth, new Set([...seen, sel.name.value]));
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet, 0, new Set());
  return out;
}

/**
 * Whether a page resolver's items (`nodes { … }` or `edges { node { … } }`) select `field`: lets a list
 * leave a long column out of its SQL when nothing asks for it (docs/security.md, "Response size").
 */
export function pageItemsSelect(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, field: string): boolean {
  return selectedFields(info, ['nodes']).has(field) || selectedFields(info, ['edges', 'node']).has(field);
}
