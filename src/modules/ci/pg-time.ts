/**
 * MikroORM hands timestamptz columns of raw queries over as PostgreSQL text
 * (`2026-11-22 10:00:00.123+00`); the plain-row readers turn them into Dates.
 */
export function pgTime(v: string | Date): Date;
export function pgTime(v: string | Date | null): Date | null;
export function pgTime(v: string | Date | null): Date | null {
  if (v === null || v instanceof Date) return v;
  // ISO 8601 by slicing (a regex per timestamp showed in list profiles, issue 8).
  let iso = v.charCodeAt(10) === 32 ? `${v.slice(0, 10)}T${v.slice(11)}` : v;
  const sign = iso.charCodeAt(iso.length - 3);
  if (sign === 43 || sign === 45) iso += ':00'; // "+00" / "-05" → "+00:00"
  return new Date(iso);
}
