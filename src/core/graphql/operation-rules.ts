import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { operationCost, queryLimitError } from './query-limits';

/**
 * Validation rule: an operation whose root type the schema lacks (this service has no Subscription
 * type) is a validation error (400), not an execution failure.
 */
export function knownOperationTypeRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (!context.getSchema().getRootType(node.operation)) {
        context.reportError(new GraphQLError(`This service does not support ${node.operation} operations`, { nodes: node }));
      }
    },
  };
}

/**
 * Depth and complexity are checked once the operation and its variables are known (the served page
 * size depends on them), before execution; over a limit → HTTP 400 with QUERY_TOO_DEEP / QUERY_TOO_COMPLEX.
 */
export function queryLimitsPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (!operation) return;
          const error = queryLimitError(operationCost(schema, document, operation, request.variables ?? {}));
          if (error) throw error;
        },
      };
    },
  };
}
