import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { resolversOf, type AppModule } from '../module/app-module';
import { guardFields } from './field-guards';
import { markSimpleFields } from './simple-fields';
import { leanFieldResolvers } from './lean-resolvers';
import { unboundedLists } from './list-bound';

const cache = new WeakMap<readonly AppModule[], Promise<GraphQLSchema>>();

/**
 * The one schema both surfaces execute, from the registered modules' resolvers. Input validation is
 * done by the services (GitLab's exact messages), so type-graphql's class-validator integration stays off.
 */
export function buildAppSchema(modules: readonly AppModule[]): Promise<GraphQLSchema> {
  let schema = cache.get(modules);
  if (!schema) {
    markSimpleFields();
    const resolvers = resolversOf(modules);
    schema = buildSchema({ resolvers, validate: false }).then((built) => {
      const unbounded = unboundedLists(built);
      if (unbounded.length) throw new Error(`list fields without perPage or @MaxItems (core/graphql/list-bound.ts): ${unbounded.join(', ')}`);
      return guardFields(leanFieldResolvers(built, resolvers));
    });
    cache.set(modules, schema);
  }
  return schema;
}

/** The committed schema.graphql text (sorted, so that diffs are stable). */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
