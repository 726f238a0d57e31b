import 'reflect-metadata';
import {
  DirectiveLocation,
  GraphQLDirective,
  GraphQLNonNull,
  GraphQLString,
  isNonNullType,
  lexicographicSortSchema,
  printSchema,
  specifiedDirectives,
  type GraphQLSchema,
} from 'graphql';
import { buildSchema, type NonEmptyArray, type PubSub } from 'type-graphql';
import { installExtensionLookup, installSuggestionCutoff } from '../runtime';
import { resolversOf, type AppModule } from '../module/app-module';
import { guardFields } from './field-guards';
import { markSimpleFields } from './simple-fields';
import { leanFieldResolvers } from './lean-resolvers';
import { unboundedLists } from './list-bound';
import { QueryComplexityResolver } from './query-complexity';
import { withMutationPayloads } from './mutation-payloads';
import { pageConnectionResolvers } from '../pagination/page';
import { NodeResolver, globalIds } from './node';
import { singleImplementationTypes } from './interface-types';
import { DateTimeISO } from './date-time';

const cache = new WeakMap<readonly AppModule[], Promise<GraphQLSchema>>();

/**
 * GitLab's `@gl_introduced(version:)` (lib/gitlab/graphql/version_filter of gitlab-org/gitlab): its
 * frontend marks fields added in a later GitLab version, which GitLab answers with null on an older
 * server. Accepted so that those documents validate; it changes nothing here, since no field is
 * resolved differently under it (there is no fallback path to get wrong).
 */
const GL_INTRODUCED = new GraphQLDirective({
  name: 'gl_introduced',
  description: 'Marks a field as introduced in a specific GitLab version (accepted; every field here is served).',
  locations: [DirectiveLocation.FIELD, DirectiveLocation.INLINE_FRAGMENT],
  args: {
    version: {
      type: new GraphQLNonNull(GraphQLString),
      description: "The version when this field was introduced (e.g. '18.1.0').",
    },
  },
});

/**
 * Subscriptions here each bring their own `subscribe` (core/events/live.ts: PostgreSQL notifications,
 * so every instance sees every commit); type-graphql's topic PubSub is not used and refuses use.
 */
const NO_PUBSUB: PubSub = {
  publish() {
    throw new Error('no in-process PubSub: subscriptions declare `subscribe` (core/events/live.ts)');
  },
  subscribe() {
    throw new Error('no in-process PubSub: subscriptions declare `subscribe` (core/events/live.ts)');
  },
};

/**
 * The one schema both surfaces execute, from the registered modules' resolvers. Input validation is
 * done by the services (GitLab's exact messages), so type-graphql's class-validator integration stays off.
 */
export function buildAppSchema(modules: readonly AppModule[]): Promise<GraphQLSchema> {
  let schema = cache.get(modules);
  if (!schema) {
    installExtensionLookup();
    installSuggestionCutoff();
    markSimpleFields();
    // Core's own root fields (queryComplexity, node, nodes) and the page types' connection fields (edges,
    // pageInfo, count: core/pagination/page.ts) next to the modules' resolvers.
    const resolvers: NonEmptyArray<Function> = [
      ...resolversOf(modules),
      QueryComplexityResolver,
      NodeResolver,
      ...pageConnectionResolvers(),
    ];
    schema = buildSchema({
      resolvers,
      validate: false,
      pubSub: NO_PUBSUB,
      directives: [...specifiedDirectives, GL_INTRODUCED],
      scalarsMap: [{ type: Date, scalar: DateTimeISO }],
    }).then((built) => {
      const unbounded = unboundedLists(built);
      if (unbounded.length)
        throw new Error(
          `list fields without perPage or @MaxItems (core/graphql/list-bound.ts): ${unbounded.join(', ')}`,
        );
      // Payload twins last: each calls its old mutation's resolver as guardFields left it (mutation-payloads.ts).
      return withMutationPayloads(
        guardFields(
          leanFieldResolvers(singleImplementationTypes(globalIds(nullableRootFields(built), modules)), resolvers),
        ),
      );
    });
    cache.set(modules, schema);
  }
  return schema;
}

/**
 * Root query and mutation fields are nullable, as in GitLab's GraphQL API: a field that fails answers
 * `null` with its error while the other root fields of the request keep their data (a dashboard query
 * survives one missing group; of two mutations in one request, the committed one reports its result).
 * Resolvers keep their non-null types; REST reads the same fields and turns
 * an error into its status as before.
 */
function nullableRootFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      if (isNonNullType(field.type)) field.type = field.type.ofType;
    }
  }
  return schema;
}

/** The committed schema.graphql text (sorted, so that diffs are stable). */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
