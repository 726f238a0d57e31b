import { ParamError } from '../errors/domain-errors';

// Date, optional time (T or space), optional fraction, optional zone (Z, ±hh, ±hhmm, ±hh:mm).
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function offsetMinutes(zone: string | undefined): number | undefined {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const h = Number(digits.slice(0, 2));
  const m = digits.length > 2 ? Number(digits.slice(2)) : 0;
  return h > 14 || m > 59 ? undefined : sign * (h * 60 + m);
}

/**
 * An ISO 8601 timestamp with any offset (none means UTC, the instance time zone), as both surfaces
 * accept it for broadcast windows (spec 4.21). Anything else, including impossible calendar dates,
 * is 400 `<name> is invalid` (GitLab's DateTime coercion message), never a database error.
 */
export function parseTimestamp(name: string, raw: string): Date {
  const m = ISO_8601.exec(raw.trim());
  if (!m) throw ParamError.invalid(name);
  const [, ys, mos, ds, hs = '0', mis = '0', ss = '0', frac = '', zone] = m;
  const [y, mo, d, h, mi, s] = [ys, mos, ds, hs, mis, ss].map(Number);
  const offset = offsetMinutes(zone);
  const days = mo === 2 && isLeap(y) ? 29 : DAYS[mo - 1];
  if (offset === undefined || y < 1 || mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59)
    throw ParamError.invalid(name);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi - offset, s, frac ? Math.floor(Number(`0${frac}`) * 1000) : 0);
  return date;
}
