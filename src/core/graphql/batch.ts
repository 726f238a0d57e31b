import { HeaderMap, type HTTPGraphQLResponse } from '@apollo/server';
import { GraphQLError, getOperationAST, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { DOCUMENT_LIMITS } from './document-guard';
import { MAX_COMPLEXITY, operationCost, queryLimitError } from './query-limits';

/** The most complexity all operations of one batch may have together (docs/security.md#batches). */
export const MAX_BATCH_COMPLEXITY = MAX_COMPLEXITY;

interface BatchPiece {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

/** A batch piece's operation and variables as Apollo will run them, or undefined when Apollo will refuse the piece itself. */
function operationOf(piece: BatchPiece | null) {
  if (typeof piece?.query !== 'string') return undefined;
  let document: DocumentNode;
  try {
    document = parse(piece.query, { maxTokens: DOCUMENT_LIMITS.maxTokens, noLocation: true });
  } catch {
    return undefined;
  }
  const operation = getOperationAST(
    document,
    typeof piece.operationName === 'string' ? piece.operationName : undefined,
  );
  const variables =
    piece.variables && typeof piece.variables === 'object' && !Array.isArray(piece.variables)
      ? (piece.variables as Record<string, unknown>)
      : {};
  return operation ? { document, operation, variables } : undefined;
}

/**
 * Depth and complexity of a batch before any of it runs: each operation within the limits of a single
 * request (the same walk as query-limits.ts, with its own variables), and their complexities summed
 * within MAX_BATCH_COMPLEXITY. The document guard has already capped every piece and the batch's size.
 */
export function batchComplexityError(schema: GraphQLSchema, body: readonly unknown[]): GraphQLError | undefined {
  let total = 0;
  for (const [i, piece] of body.entries()) {
    const op = operationOf(piece as BatchPiece | null);
    if (!op) continue;
    const cost = operationCost(schema, op.document, op.operation, op.variables);
    const own = queryLimitError(cost);
    if (own)
      return new GraphQLError(`Operation ${i + 1} of the batch: ${own.message}`, {
        extensions: { code: own.extensions.code },
      });
    total += cost.cost;
  }
  if (total <= MAX_BATCH_COMPLEXITY) return undefined;
  return new GraphQLError(
    `Batch complexity ${total} (all operations together) exceeds the maximum of ${MAX_BATCH_COMPLEXITY}`,
    { extensions: { code: 'QUERY_TOO_COMPLEX' } },
  );
}

function refusal(error: GraphQLError): HTTPGraphQLResponse {
  const headers = new HeaderMap([
    ['content-type', 'application/json; charset=utf-8'],
    ['cache-control', 'no-store'],
  ]);
  return {
    status: 400,
    headers,
    body: {
      kind: 'complete',
      string: JSON.stringify({ errors: [{ message: error.message, extensions: error.extensions }] }),
    },
  };
}

/**
 * POST of a JSON array of operations (Apollo Client's BatchHttpLink format): answered with the array
 * of their results, in order. Unlike Apollo Server's own batching (all operations at once on one
 * shared context), each operation runs after the previous one with a context of its own (its own
 * entity manager and dataloaders: a mutation's writes and a later query's reads do not share a unit
 * of work), so a batch holds at most one pooled connection at a time. The response status is the
 * highest of the operations' statuses (200 when all succeeded), as Apollo's shared response head.
 */
export async function runBatch(
  schema: GraphQLSchema,
  body: readonly unknown[],
  run: (piece: unknown) => Promise<HTTPGraphQLResponse>,
): Promise<HTTPGraphQLResponse> {
  const refused = batchComplexityError(schema, body);
  if (refused) return refusal(refused);
  const results: string[] = [];
  let status = 200;
  let headers = new HeaderMap();
  for (const piece of body) {
    const response = await run(piece);
    if (response.body.kind !== 'complete') throw new Error('incremental delivery is not served in a batch');
    if (results.length === 0) headers = response.headers;
    status = Math.max(status, response.status ?? 200);
    results.push(response.body.string);
  }
  return { status, headers, body: { kind: 'complete', string: `[${results.join(',')}]` } };
}
