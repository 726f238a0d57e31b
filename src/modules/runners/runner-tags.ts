import { ValidationError } from '../../core/errors/domain-errors';

/**
 * Tags as GitLab's taggable model stores them: every item split on commas, trimmed, blanks and
 * duplicates dropped (`tag_list=ruby,mysql`, `tag_list[]=ruby`, a JSON array: all the same).
 */
export function normalizeTags(items: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    for (const raw of item.split(',')) {
      const tag = raw.trim();
      if (tag && !out.includes(tag)) out.push(tag);
    }
  }
  return out;
}

/** The runner model rule (Ci::Runner#tag_constraints); the attribute key is literally `tags_list`. */
export function checkTagConstraint(runner: { tagList: string[]; runUntagged: boolean }): void {
  if (runner.tagList.length === 0 && !runner.runUntagged) {
    throw new ValidationError({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
  }
}
