import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { allowRuleOf } from '../auth/allow';
import { EnforceAllow, RejectNulBytes } from '../auth/guards';
import { resolversOf, type AppModule } from '../module/app-module';

const cache = new WeakMap<readonly AppModule[], Promise<GraphQLSchema>>();

/** Fails at start-up (and in every test) when a root field has no @Allow permission. */
function checkPermissions(schema: GraphQLSchema): GraphQLSchema {
  for (const [type, op] of [[schema.getQueryType(), 'query'], [schema.getMutationType(), 'mutation']] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) allowRuleOf(field, op);
  }
  return schema;
}

/**
 * The one schema both surfaces execute, from the registered modules' resolvers. Input validation is
 * done by the services (GitLab's exact messages), so type-graphql's class-validator integration stays off.
 */
export function buildAppSchema(modules: readonly AppModule[]): Promise<GraphQLSchema> {
  let schema = cache.get(modules);
  if (!schema) {
    schema = buildSchema({ resolvers: resolversOf(modules), validate: false, globalMiddlewares: [EnforceAllow, RejectNulBytes] }).then(checkPermissions);
    cache.set(modules, schema);
  }
  return schema;
}

/** The committed schema.graphql text (sorted, so that diffs are stable). */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
