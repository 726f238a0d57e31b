import type { FieldErrors } from './domain-errors';

/** Collects model validation messages per field; thrown as a ValidationError or SaveFailedError. */
export class FieldErrorBag {
  readonly errors: FieldErrors = {};
  add(field: string, msg: string): void {
    (this.errors[field] ??= []).push(msg);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}
