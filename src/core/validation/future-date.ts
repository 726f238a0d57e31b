import { ValidationError } from '../errors/domain-errors';

/**
 * GitLab's FutureDateValidator: an optional YYYY-MM-DD date may be today or later, else 400
 * `{"message":{"<name>":["cannot be a date in the past"]}}`. Call after the format check.
 */
export function assertNotPast(name: string, value: string | null | undefined, now: Date): void {
  if (value == null) return;
  if (value < now.toISOString().slice(0, 10)) throw new ValidationError({ [name]: ['cannot be a date in the past'] });
}
