import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { SaveFailedError, ValidationError, assertUnreachable, type ErrorCode } from './domain-errors';
import { asDomainError } from './driver-errors';

function graphqlCode(code: ErrorCode): string {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 'UNAUTHENTICATED';
    case 'FORBIDDEN':
    case 'INSUFFICIENT_SCOPE':
    case 'LIMIT_REACHED':
      return 'FORBIDDEN';
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    case 'PARAM':
    case 'NOT_ALLOWED':
    case 'VALIDATION':
    case 'SAVE_FAILED':
    case 'BAD_REQUEST':
      return 'BAD_USER_INPUT';
    case 'CONFLICT':
      return 'CONFLICT';
    case 'PRECONDITION_FAILED':
      return 'PRECONDITION_FAILED';
    case 'UNAVAILABLE':
      return 'SERVICE_UNAVAILABLE';
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
  const domain = asDomainError(original);
  if (domain) {
    const extensions: Record<string, unknown> = { code: graphqlCode(domain.code) };
    if (domain instanceof ValidationError) extensions.fields = domain.fields;
    // GraphQL clients get plain text and the field errors, not REST's Ruby hash dump:
    // `Failed to save group: path has already been taken`, extensions.fields {path: [...]}.
    if (domain instanceof SaveFailedError) {
      extensions.fields = domain.fields;
      const plain = Object.entries(domain.fields)
        .map(([k, msgs]) => `${k} ${msgs.join(', ')}`)
        .join('; ');
      return {
        message: `${domain.prefix}: ${plain}`,
        locations: formatted.locations,
        path: formatted.path,
        extensions,
      };
    }
    return { message: domain.message, locations: formatted.locations, path: formatted.path, extensions };
  }
  const code = formatted.extensions?.code;
  if (original && !(original instanceof GraphQLError) && (code === undefined || code === 'INTERNAL_SERVER_ERROR')) {
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  }
  const { stacktrace: _drop, ...rest } = (formatted.extensions ?? {}) as Record<string, unknown>;
  return { ...formatted, extensions: rest };
}

/**
 * Apollo answers a failed context function with HTTP 500 "Context creation failed"; a database outage
 * while authenticating is a 503 with code SERVICE_UNAVAILABLE instead.
 */
export function contextCreationError(err: unknown): never {
  const domain = asDomainError(err);
  if (domain?.code === 'UNAVAILABLE') {
    throw new GraphQLError(domain.message, {
      originalError: domain,
      extensions: { code: graphqlCode(domain.code), http: { status: 503 } },
    });
  }
  throw err;
}
