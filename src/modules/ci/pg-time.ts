/**
 * MikroORM hands timestamptz columns of raw queries over as PostgreSQL text
 * (`2026-11-22 10:00:00.123+00`); the plain-row readers turn them into Dates.
 */
export function pgTime(v: string | Date): Date;
export function pgTime(v: string | Date | null): Date | null;
export function pgTime(v: string | Date | null): Date | null {
  if (v === null || v instanceof Date) return v;
  return new Date(v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}
