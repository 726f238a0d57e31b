import {
  ConflictError,
  LimitReachedError,
  SaveFailedError,
  ValidationError,
  assertUnreachable,
  type FieldErrors,
} from './domain-errors';
import { asDomainError } from './driver-errors';

/**
 * Rails' `humanize` of an attribute name, as GitLab's `errors.full_messages` prints it: underscores to
 * spaces, a trailing `_id` dropped, the first letter capitalized (`visibility_level` → `Visibility level`,
 * `forked_from_project_id` → `Forked from project`). https://api.rubyonrails.org/classes/ActiveSupport/Inflector.html#method-i-humanize
 */
export function humanizeAttribute(name: string): string {
  const words = name.replace(/_id$/, '').replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * GitLab's full messages (ActiveModel `errors.full_messages`): the humanized attribute, then the
 * message (`Path has already been taken`); `base` errors are the message alone.
 */
export function fullMessages(fields: FieldErrors): string[] {
  return Object.entries(fields).flatMap(([attr, msgs]) =>
    msgs.map((m) => (attr === 'base' ? m : `${humanizeAttribute(attr)} ${m}`)),
  );
}

/**
 * What a mutation payload's `errors` carries for a failure (GitLab's GraphQL mutations: the model's
 * validation messages, not a failed request; docs.gitlab.com/ee/development/api_graphql_styleguide.html#errors-in-mutations):
 * validation, conflicts, quotas and bad input. `undefined` for failures that stay top-level GraphQL
 * errors with the field null: authentication, scope, permission, not found, database unavailable, and
 * anything unexpected. Exhaustive like rest-error.ts and graphql-error.ts: a new code fails the build here too.
 */
export function payloadErrors(err: unknown): string[] | undefined {
  const domain = asDomainError(err);
  if (!domain) return undefined;
  const code = domain.code;
  switch (code) {
    case 'VALIDATION':
    case 'SAVE_FAILED':
      return fullMessages((domain as ValidationError | SaveFailedError).fields);
    case 'CONFLICT': {
      const fields = (domain as ConflictError).fields;
      return fields ? fullMessages(fields) : [domain.message];
    }
    case 'LIMIT_REACHED':
      return [...(domain as LimitReachedError).messages];
    case 'PARAM':
    case 'BAD_REQUEST':
    case 'NOT_ALLOWED':
    case 'PRECONDITION_FAILED':
      return [domain.message];
    case 'UNAUTHENTICATED':
    case 'FORBIDDEN':
    case 'INSUFFICIENT_SCOPE':
    case 'NOT_FOUND':
    case 'UNAVAILABLE':
      return undefined;
    default:
      return assertUnreachable(code);
  }
}
