import { Extensions } from 'type-graphql';

/** Extension key read by rest/derive-params.ts: the argument is no REST parameter. */
export const GRAPHQL_ONLY_EXTENSION = 'graphqlOnly';

/**
 * Marks a field of an @ArgsType class as a GraphQL-only argument: a REST route compiled from the
 * root field leaves it out (REST must not change when a dashboard filter is added to a shared root
 * field). PageArgs' connection arguments (first/after/last/before) carry it too.
 */
export function GraphQLOnly(): MethodDecorator & PropertyDecorator & ClassDecorator {
  return Extensions({ [GRAPHQL_ONLY_EXTENSION]: true });
}
