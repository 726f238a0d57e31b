import {
  GraphQLError,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
} from 'graphql';
import { operationCost, queryLimitError, type OperationCost } from './query-limits';

/**
 * Validation rule: an operation whose root type the schema lacks is a validation error (400), not an
 * execution failure. Subscriptions exist, but only over WebSocket (core/graphql/subscriptions.ts).
 */
export function knownOperationTypeRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (!context.getSchema().getRootType(node.operation)) {
        context.reportError(
          new GraphQLError(`This service does not support ${node.operation} operations`, { nodes: node }),
        );
      }
    },
  };
}

/** Costs of operations without variables, per parsed operation (Apollo reuses the parsed document of a known text). */
const fixedCosts = new WeakMap<OperationDefinitionNode, OperationCost>();

/**
 * Depth and complexity, checked once the operation and its variables are known (the served page
 * size depends on them), before execution: over a limit → HTTP 400 with QUERY_TOO_DEEP /
 * QUERY_TOO_COMPLEX. An operation without variables costs the same every time: computed once.
 */
export function queryLimitCheck(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): GraphQLError | undefined {
  return queryLimitError(checkedCost(schema, document, operation, variables));
}

/** The depth and complexity queryLimitCheck compares with the limits (also what `queryComplexity` answers). */
export function checkedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): OperationCost {
  if (operation.variableDefinitions?.length) return operationCost(schema, document, operation, variables ?? {});
  let cost = fixedCosts.get(operation);
  if (!cost) {
    cost = operationCost(schema, document, operation, {});
    fixedCosts.set(operation, cost);
  }
  return cost;
}
