import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, ValidationError, assertUnreachable, type ErrorCode } from './domain-errors';

function graphqlCode(code: ErrorCode): string {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 'UNAUTHENTICATED';
    case 'FORBIDDEN':
    case 'INSUFFICIENT_SCOPE':
      return 'FORBIDDEN';
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    case 'PARAM':
    case 'VALIDATION':
    case 'SAVE_FAILED':
      return 'BAD_USER_INPUT';
    case 'CONFLICT':
      return 'CONFLICT';
    default:
      return assertUnreachable(code);
  }
}

/**
 * Apollo formatError: DomainErrors get extensions.code (and field errors for validation);
 * anything unexpected is reduced to INTERNAL_SERVER_ERROR without a message leak or stack.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  if (original instanceof DomainError) {
    const extensions: Record<string, unknown> = { code: graphqlCode(original.code) };
    if (original instanceof ValidationError) extensions.fields = original.fields;
    return { message: original.message, locations: formatted.locations, path: formatted.path, extensions };
  }
  const code = formatted.extensions?.code;
  if (original && !(original instanceof GraphQLError) && (code === undefined || code === 'INTERNAL_SERVER_ERROR')) {
    return { message: 'Internal server error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  const { stacktrace: _drop, ...rest } = (formatted.extensions ?? {}) as Record<string, unknown>;
  return { ...formatted, extensions: rest };
}
