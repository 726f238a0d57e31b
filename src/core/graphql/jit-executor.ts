import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  execute,
  getVariableValues,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery } from './jit';
import type { RequestCtx } from '../context/request-ctx';
import { jitCacheOf, type JitEntry, type LruCache } from './jit-cache';
import { installGatewayContext } from '../runtime';

type Gateway = ApolloServerOptionsWithGateway<RequestCtx>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;
type ExecutorRequest = Parameters<Executor>[0];

/** graphql-js `execute`, exactly as Apollo runs it without a gateway. */
function runWithGraphqlJs(schema: GraphQLSchema, rc: ExecutorRequest): Promise<ExecutionResult> | ExecutionResult {
  const { request, document } = rc;
  return execute({
    schema,
    document,
    contextValue: rc.context,
    variableValues: request.variables,
    operationName: request.operationName,
  });
}

/**
 * Fields the operation selects with its fragments expanded (each fragment counted once, then reused;
 * validation has already refused cycles): what a compiled query's size grows with.
 */
export function expandedFieldCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else {
        const name = sel.name.value;
        let known = memo.get(name);
        if (known === undefined) {
          memo.set(name, 0); // a cycle (validation refuses them) would count as empty
          const fragment = fragments.get(name);
          known = fragment ? count(fragment.selectionSet) : 0;
          memo.set(name, known);
        }
        n += known;
      }
    }
    return n;
  };
  return count(operation.selectionSet);
}

function compiledFor(
  schema: GraphQLSchema,
  cache: LruCache<JitEntry>,
  rc: ExecutorRequest,
  operation: OperationDefinitionNode,
): JitEntry {
  // The operation is resolved from the document by its name, so text + name identify the compiled query.
  const name = operation.name?.value;
  const key = `${rc.queryHash ?? rc.source}\n${name ?? ''}`;
  let entry = cache.get(key);
  if (!entry) {
    const fields = expandedFieldCount(rc.document, operation);
    const compiled = fields <= cache.maxEntryWeight ? compileQuery(schema, rc.document, name) : undefined;
    entry = compiled && isCompiledQuery(compiled) ? compiled : 'execute';
    cache.set(key, entry, entry === 'execute' ? 1 : fields);
  }
  return entry;
}

/**
 * graphql-js wraps everything a resolver or a value completion throws in a GraphQLError with the
 * thrown value as `originalError` and `extensions` always an object; formatGraphQLError and the
 * error-logging plugin decide on that `originalError`. graphql-jit's errors can lack both, so they
 * are rebuilt the way graphql-js builds them: "Cannot return null for non-nullable field" is a plain
 * Error in graphql-js (logged, reported as INTERNAL_SERVER_ERROR), the other completion errors are
 * GraphQLErrors (client-visible, not logged).
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  const thrown = error.originalError;
  if (thrown instanceof GraphQLError && Array.isArray(thrown.path)) return thrown;
  const originalError =
    thrown ??
    (error.message.startsWith('Cannot return null for non-nullable field')
      ? new Error(error.message)
      : new GraphQLError(error.message));
  const rebuilt = new GraphQLError(error.message, { path: error.path, originalError, extensions: error.extensions });
  return Object.assign(rebuilt, { locations: error.locations });
}

/**
 * Runs one operation Apollo has already parsed, validated and resolved (its plugins, the query
 * limits among them, ran before this): compiled once per document text and operation with
 * graphql-jit, cached in a bounded LRU (jit-cache.ts). graphql-js `execute` runs what graphql-jit
 * cannot compile and requests without a resolved operation. Variables are coerced by graphql-js
 * first, so their error messages (and Apollo's 400 for them) stay graphql-js's.
 */
export function jitExecutor(schema: GraphQLSchema): Executor {
  const cache = jitCacheOf(schema);
  return async (rc) => {
    const operation = rc.operation as OperationDefinitionNode | undefined;
    if (!operation) return runWithGraphqlJs(schema, rc);
    const entry = compiledFor(schema, cache, rc, operation);
    if (entry === 'execute') return runWithGraphqlJs(schema, rc);
    const variables = rc.request.variables ?? {};
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    const result = await entry.query(undefined, rc.context, variables);
    // graphql-jit refused variables graphql-js accepted: let graphql-js run the whole operation.
    if (!('data' in result)) return runWithGraphqlJs(schema, rc);
    return result.errors ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  };
}

/**
 * Apollo Server's gateway hook used for one local schema: Apollo keeps parsing, validation, its
 * document LRU, plugins and error formatting, and hands execution to `jitExecutor`. (What Apollo
 * builds for each operation handed to a gateway is patched in core/runtime/apollo-gateway-context.ts.)
 */
export function jitGateway(schema: GraphQLSchema): Gateway {
  installGatewayContext();
  const listeners = new Set<Parameters<Gateway['onSchemaLoadOrUpdate']>[0]>();
  return {
    onSchemaLoadOrUpdate(callback) {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    async load() {
      for (const listener of listeners) listener({ apiSchema: schema, coreSupergraphSdl: '' });
      return { executor: jitExecutor(schema) };
    },
    async stop() {
      listeners.clear();
    },
  };
}
