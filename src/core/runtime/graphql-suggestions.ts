/**
 * Runtime patch of graphql-js (one of core/runtime's; docs/runtime-patches.md).
 *
 * graphql-js's validation rules and input coercion add "Did you mean …?" to an error about an unknown
 * type, field, argument or enum value. They compute it with `suggestionList(input, options)`
 * (jsutils/suggestionList.js), which lowercases and compares the unknown name with every candidate (for
 * an unknown type: every type of the schema, about 700 here) by edit distance. A client controls how
 * many unknown names one document holds, so validation became the costliest thing an anonymous request
 * could ask for (docs/security.md#graphql). With the patch `suggestionList` suggests nothing: the errors
 * keep their text up to the suggestion ("Unknown type \"Projectz\".", "Cannot query field \"x\" on type
 * \"Query\"."), as GitLab's own GraphQL errors carry none.
 *
 * The rules call it through the module object (`(0, _suggestionList.suggestionList)(…)`), so replacing
 * the export replaces it for every caller that was loaded from the same graphql copy.
 */
interface SuggestionModule {
  suggestionList: (input: string, options: readonly string[]) => string[];
}

function suggestionModule(): SuggestionModule | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('graphql/jsutils/suggestionList') as SuggestionModule;
  } catch {
    return undefined;
  }
}

/** The contract: graphql-js still computes its suggestions with a replaceable `suggestionList(input, options)`. */
export function graphqlSuggestionsContract(): string | undefined {
  const mod = suggestionModule();
  if (!mod) return 'graphql/jsutils/suggestionList is gone';
  if (typeof mod.suggestionList !== 'function' || mod.suggestionList.length !== 2)
    return 'graphql/jsutils/suggestionList no longer exports suggestionList(input, options)';
  const descriptor = Object.getOwnPropertyDescriptor(mod, 'suggestionList');
  if (!descriptor?.writable && !descriptor?.set) return 'suggestionList can no longer be replaced';
  return undefined;
}

const none = (): string[] => [];

export function installGraphqlSuggestions(): void {
  if (graphqlSuggestionsContract()) return;
  suggestionModule()!.suggestionList = none;
}
