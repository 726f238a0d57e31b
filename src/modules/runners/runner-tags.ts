import type { RequestCtx } from '../../core/context/request-ctx';
import { ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { checkColumnLengths } from '../../core/validation/column-length';
import { Runner } from './runner.entity';

/**
 * Tags as GitLab's taggable model stores them: every item split on commas, trimmed, blanks and
 * duplicates dropped (`tag_list=ruby,mysql`, `tag_list[]=ruby`, a JSON array: all the same).
 * Linear: a Set keeps the first occurrence's order (an `includes` per tag took 14 s for 80,000 tags,
 * which a 2 MB body can hold three times over).
 */
export function normalizeTags(items: readonly string[]): string[] {
  const out = new Set<string>();
  for (const item of items) {
    for (const raw of item.split(',')) {
      const tag = raw.trim();
      if (tag) out.add(tag);
    }
  }
  return [...out];
}

/** GitLab's shortest `maximum_timeout`: ten minutes (Ci::Runner's numericality validation). */
export const MIN_MAXIMUM_TIMEOUT = 600;

/**
 * Ci::Runner's own validations: #tag_constraints, whose attribute key is literally `tags_list`, and
 * `maximum_timeout` of at least ten minutes when set.
 */
export function checkRunnerRules(bag: FieldErrorBag, runner: Runner): void {
  if (runner.tagList.length === 0 && !runner.runUntagged)
    bag.add('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (runner.maximumTimeout !== null && runner.maximumTimeout < MIN_MAXIMUM_TIMEOUT)
    bag.add('maximum_timeout', 'needs to be at least 10 minutes');
}

/** The runner's model validations before a write: column lengths (description, info fields) and its rules. */
export function validateRunner(ctx: RequestCtx, runner: Runner): void {
  const bag = new FieldErrorBag();
  checkColumnLengths(bag, ctx.em.getMetadata().get(Runner.name), runner);
  checkRunnerRules(bag, runner);
  if (!bag.empty) throw new ValidationError(bag.errors);
}
