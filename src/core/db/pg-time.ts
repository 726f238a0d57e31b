/**
 * MikroORM hands timestamptz columns of raw queries over as PostgreSQL text
 * (`2026-11-22 10:00:00.123+00`); the plain-row readers and `lightEntity` turn them into Dates.
 * Text without a zone is UTC (MikroORM's forceUtcTimezone).
 */
export function pgTime(v: string | Date): Date;
export function pgTime(v: string | Date | null): Date | null;
export function pgTime(v: string | Date | null): Date | null {
  if (v === null || v instanceof Date) return v;
  const ms = fastMillis(v);
  return ms === undefined ? slowParse(v) : new Date(ms);
}

/** The general path: the text made ISO 8601 and given to the Date parser. */
function slowParse(v: string): Date {
  let iso = v.charCodeAt(10) === 32 ? `${v.slice(0, 10)}T${v.slice(11)}` : v;
  const sign = iso.charCodeAt(iso.length - 3);
  if (sign === 43 || sign === 45)
    iso += ':00'; // "+00" / "-05" → "+00:00"
  else if (!iso.endsWith('Z') && !/[+-]\d\d:\d\d$/.test(iso)) iso += 'Z'; // no zone: UTC
  return new Date(iso);
}

/** The digits at [i, i + n) as a number, or -1 when one is not a digit. */
function digits(s: string, i: number, n: number): number {
  let x = 0;
  for (let k = i; k < i + n; k += 1) {
    const d = s.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    x = x * 10 + d;
  }
  return x;
}

/**
 * PostgreSQL's ISO output (`YYYY-MM-DD HH:MM:SS[.ffffff][±HH[:MM]]`, or `T`/`Z` forms) read by
 * character codes: the Date parser on a rebuilt string costs more than the rest of a listed row.
 * Fractions past milliseconds are cut, as the Date parser cuts them.
 * Anything else (years before 100 or past 9999, BC, infinity, odd layouts) → undefined: the Date
 * parser decides, as before.
 */
function fastMillis(s: string): number | undefined {
  const n = s.length;
  if (n < 19 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return undefined;
  const sep = s.charCodeAt(10);
  if (sep !== 32 && sep !== 84) return undefined;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (
    year < 100 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour < 0 ||
    hour > 24 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59
  )
    return undefined;
  let i = 19;
  let ms = 0;
  if (i < n && s.charCodeAt(i) === 46) {
    i += 1;
    const start = i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i += 1;
    if (i === start) return undefined;
    const w = Math.min(i - start, 3);
    ms = digits(s, start, w) * (w === 1 ? 100 : w === 2 ? 10 : 1);
  }
  let offset = 0;
  if (i < n) {
    const c = s.charCodeAt(i);
    if (c === 90) {
      if (i + 1 !== n) return undefined;
    } else if (c === 43 || c === 45) {
      // ±HH or ±HH:MM (an offset with seconds is left to the Date parser)
      const rest = n - i - 1;
      if (rest !== 2 && (rest !== 5 || s.charCodeAt(i + 3) !== 58)) return undefined;
      const oh = digits(s, i + 1, 2);
      const om = rest === 5 ? digits(s, i + 4, 2) : 0;
      if (oh < 0 || om < 0) return undefined;
      offset = (c === 43 ? 1 : -1) * (oh * 60 + om) * 60000;
    } else {
      return undefined;
    }
  }
  // Day 31 of a 30-day month (and the like) must not roll over: the Date parser decides.
  if (hour === 24 || day > daysIn(year, month)) return undefined;
  return daysFromCivil(year, month, day) * 86400000 + hour * 3600000 + minute * 60000 + second * 1000 + ms - offset;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil; cheaper than Date.UTC). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function daysIn(year: number, month: number): number {
  if (month !== 2) return DAYS[month - 1];
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}
