/**
 * MikroORM hands timestamptz columns of raw queries over as PostgreSQL text
 * (`2026-11-22 10:00:00.123+00`); the plain-row readers and `lightEntity` turn them into Dates.
 * Text without a zone is UTC (MikroORM's forceUtcTimezone).
 */
export function pgTime(v: string | Date): Date;
export function pgTime(v: string | Date | null): Date | null;
export function pgTime(v: string | Date | null): Date | null {
  if (v === null || v instanceof Date) return v;
  // ISO 8601 by slicing (a regex per timestamp showed in list profiles, issue 8).
  let iso = v.charCodeAt(10) === 32 ? `${v.slice(0, 10)}T${v.slice(11)}` : v;
  const sign = iso.charCodeAt(iso.length - 3);
  if (sign === 43 || sign === 45) iso += ':00'; // "+00" / "-05" → "+00:00"
  else if (!iso.endsWith('Z') && !/[+-]\d\d:\d\d$/.test(iso)) iso += 'Z'; // no zone: UTC
  return new Date(iso);
}
