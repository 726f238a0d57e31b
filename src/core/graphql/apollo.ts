import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestCtx } from '../context/request-ctx';
import { DomainError } from '../errors/domain-errors';
import { formatGraphQLError } from '../errors/graphql-error';
import { DOCUMENT_LIMITS } from './document-guard';
import { jitGateway } from './jit-executor';
import { checkedCost, knownOperationTypeRule } from './operation-rules';
import { recordOperationCost } from './query-complexity';
import { queryLimitError } from './query-limits';

/** Per-request facts the HTTP layer knows (request id) and wants back (the metrics route label). */
export interface GraphQLRequestInfo {
  reqId: string;
  setRoute(label: string): void;
}

export interface ApolloHooks {
  /** Logs one unexpected error (DomainErrors and client errors never reach it). */
  reportError(err: unknown, where: { reqId?: string; route: string; userId: number | null }): void;
}

// Apollo hands plugins a shallow copy of the context object, so the info travels as an own property.
const REQUEST_INFO = Symbol('graphqlRequestInfo');
type WithInfo = RequestCtx & { [REQUEST_INFO]?: GraphQLRequestInfo };

export function attachRequestInfo(ctx: RequestCtx, info: GraphQLRequestInfo): RequestCtx {
  return Object.assign(ctx, { [REQUEST_INFO]: info });
}

const infoOf = (ctx: RequestCtx | undefined): GraphQLRequestInfo | undefined =>
  (ctx as WithInfo | undefined)?.[REQUEST_INFO];

/**
 * Bounded metrics label: operation type plus the root field when there is exactly one and the schema
 * has it (client-chosen operation names are unbounded, root fields are not).
 */
export function operationLabel(schema: GraphQLSchema, op: OperationDefinitionNode | undefined): string {
  if (!op) return 'graphql invalid';
  const root =
    op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  const fields = op.selectionSet.selections.filter((s) => s.kind === 'Field');
  const only = fields.length === 1 && fields[0].kind === 'Field' ? fields[0].name.value : undefined;
  const name =
    only && (only === '__schema' || only === '__type' || root?.getFields()[only])
      ? only
      : fields.length > 1
        ? 'multiple'
        : 'other';
  return `graphql ${op.operation} ${name}`;
}

/**
 * The service's one Apollo plugin (one listener per request: Apollo awaits every listener at every
 * stage). Per operation: the metrics label, the query limits (operation-rules.ts). Errors:
 * each unexpected one logged once (parse, validation, coercion and DomainErrors are the client's).
 * Responses: `Cache-Control: no-store`, as Apollo's default cache-control plugin sends when no field
 * carries a cache hint (none does here). That plugin is off: it wraps every field of the schema in a
 * resolver that computes a cache policy per resolved value, which also takes plain property fields
 * off graphql-jit's direct property reads. Inline tracing (federated subgraphs only: this schema is
 * none) is off too, so that Apollo does not load its trace encoder at every start.
 */
function servicePlugin(hooks?: ApolloHooks): ApolloServerPlugin<RequestCtx> {
  return {
    async requestDidStart() {
      let label = 'graphql invalid';
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          label = operationLabel(schema, operation);
          infoOf(contextValue)?.setRoute(label);
          if (!operation) return;
          if (operation.operation === 'subscription') {
            throw new GraphQLError('Subscriptions are served over WebSocket (graphql-transport-ws) at this path', {
              extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
            });
          }
          const cost = checkedCost(schema, document, operation, request.variables);
          const error = queryLimitError(cost);
          if (error) throw error;
          recordOperationCost(contextValue, cost); // what Query.queryComplexity answers
        },
        async didEncounterErrors({ errors, contextValue }) {
          if (!hooks) return;
          const info = infoOf(contextValue);
          for (const e of errors) {
            const original = e instanceof GraphQLError ? e.originalError : e;
            if (!original || original instanceof GraphQLError) continue; // parse, validation, coercion: client errors
            if (original instanceof DomainError && original.code !== 'UNAVAILABLE') continue;
            hooks.reportError(original, { reqId: info?.reqId, route: label, userId: contextValue?.user?.id ?? null });
          }
        },
        async willSendResponse({ response }) {
          if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

/**
 * Apollo Server for POST /graphql: errors keep HTTP 200 and carry extensions.code (DomainErrors never
 * set extensions.http), no stack traces, introspection on (GraphiQL needs it), CDN landing pages off.
 * Operations execute through graphql-jit with a bounded cache of compiled documents (jit-executor.ts).
 */
export async function startApollo(schema: GraphQLSchema, hooks?: ApolloHooks): Promise<ApolloServer<RequestCtx>> {
  const server = new ApolloServer<RequestCtx>({
    gateway: jitGateway(schema),
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns shutdown order (HTTP, then Apollo, then the pool and embedded PostgreSQL).
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    // Document caps run before Apollo (document-guard.ts); maxTokens again here as a backstop.
    parseOptions: { maxTokens: DOCUMENT_LIMITS.maxTokens },
    validationRules: [knownOperationTypeRule],
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      servicePlugin(hooks),
    ],
  });
  await server.start();
  return server;
}
