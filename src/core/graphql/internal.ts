import { Extensions } from 'type-graphql';

/** Extension key read by views.ts: the element belongs to the internal view only. */
export const INTERNAL_EXTENSION = 'internalOnly';

/**
 * Marks a field, argument, input field or type as part of the internal view only
 * (docs/graphql.md#two-views-of-one-schema): REST routes compile against it, the public GraphQL API
 * does not show it. The counterpart of `@GraphQLOnly()` (graphql-only.ts).
 */
export function Internal(): MethodDecorator & PropertyDecorator & ClassDecorator {
  return Extensions({ [INTERNAL_EXTENSION]: true });
}
