import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { RequestCtx } from '../context/request-ctx';
import { formatGraphQLError } from '../errors/graphql-error';
import { DOCUMENT_LIMITS } from './document-guard';
import { knownOperationTypeRule, queryLimitsPlugin } from './operation-rules';

/**
 * Apollo Server for POST /graphql: errors keep HTTP 200 and carry extensions.code (DomainErrors never
 * set extensions.http), no stack traces, introspection on (GraphiQL needs it), CDN landing pages off.
 */
export async function startApollo(schema: GraphQLSchema): Promise<ApolloServer<RequestCtx>> {
  const server = new ApolloServer<RequestCtx>({
    schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns shutdown order (HTTP, then Apollo, then the pool and embedded PostgreSQL).
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    // Document caps run before Apollo (document-guard.ts); maxTokens again here as a backstop.
    parseOptions: { maxTokens: DOCUMENT_LIMITS.maxTokens },
    validationRules: [knownOperationTypeRule],
    plugins: [ApolloServerPluginLandingPageDisabled(), queryLimitsPlugin<RequestCtx>()],
  });
  await server.start();
  return server;
}
