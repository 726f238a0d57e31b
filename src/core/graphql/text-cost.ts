import type { GraphQLField } from 'graphql';
import { Extensions } from 'type-graphql';

const EXTENSION = 'textChars';

/**
 * Characters one unit of complexity pays for. A field value counts 1 (query-limits.ts); a text field
 * whose stored value may be longer declares its bound with `@TextCost(n)` and counts `ceil(n / 256)`,
 * so the complexity cap also caps the characters an operation can ask for: 30,000 units × 256
 * characters, about 7.7 million characters of text (docs/security.md, "Response size").
 */
export const TEXT_COST_CHARS = 256;

/**
 * A text field that may hold more than `TEXT_COST_CHARS` characters, with the most it holds: the
 * bound its write path enforces (a key's maximum length, a description's 2,000 characters). The cost
 * walk charges every value of it at that bound, whether or not the stored value is that long.
 */
export function TextCost(maxChars: number): MethodDecorator & PropertyDecorator {
  return Extensions(textCostExtension(maxChars));
}

/** The field extensions of `@TextCost(n)`, for fields built outside type-graphql. */
export function textCostExtension(maxChars: number): Record<string, number> {
  return { [EXTENSION]: maxChars };
}

/** The declared bound of a text field, if it has one. */
export function textCharsOf(field: GraphQLField<unknown, unknown>): number | undefined {
  const n = field.extensions?.[EXTENSION];
  return typeof n === 'number' ? n : undefined;
}

/** Units one value of the field costs: 1, or its declared characters in units of 256. */
export function textUnitsOf(field: GraphQLField<unknown, unknown>): number {
  const chars = textCharsOf(field);
  return chars === undefined ? 1 : Math.max(1, Math.ceil(chars / TEXT_COST_CHARS));
}
