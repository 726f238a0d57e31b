import type { EntityMetadata } from '@mikro-orm/core';
import type { FieldErrorBag } from '../errors/field-error-bag';
import { snakeCase } from '../params/coerce';
import { longerThan } from './char-length';

/**
 * GitLab's `is too long (maximum is N characters)` for every string column with a declared length,
 * read from the entity's metadata, so a new column is checked without another line. Fields in
 * `checked` have their own rule (blank, format) and are skipped.
 */
export function checkColumnLengths(
  bag: FieldErrorBag,
  meta: EntityMetadata,
  entity: object,
  checked: readonly string[] = [],
): void {
  const values = entity as Record<string, unknown>;
  for (const prop of meta.props) {
    const value = values[prop.name];
    if (!prop.length || typeof value !== 'string' || checked.includes(prop.name)) continue;
    if (longerThan(value, prop.length))
      bag.add(snakeCase(prop.name), `is too long (maximum is ${prop.length} characters)`);
  }
}
