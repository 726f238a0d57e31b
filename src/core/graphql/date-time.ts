import { GraphQLScalarType } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';

const P2 = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** 2000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: the range written by hand below. */
const FROM = 946_684_800_000;
const UNTIL = 253_402_300_800_000;

/**
 * `date.toISOString()`, faster for the years 2000-9999 (a list of jobs serializes several dates
 * per row): days to civil date by H. Hinnant's algorithm
 * (https://howardhinnant.github.io/date_algorithms.html#civil_from_days), digits from tables. Other
 * instants (and invalid dates, which throw a RangeError as before) go to toISOString.
 */
export function isoString(date: Date): string {
  const t = date.getTime();
  if (!(t >= FROM && t < UNTIL)) return date.toISOString();
  const days = Math.floor(t / 86_400_000);
  let rest = t - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  return `${year}-${P2[month]}-${P2[day]}T${P2[hour]}:${P2[minute]}:${P2[second]}.${P3[rest - second * 1000]}Z`;
}

/**
 * The schema's `DateTimeISO` scalar (type-graphql's default for Date fields, graphql-scalars'
 * GraphQLDateTimeISO): the same name, description, parsing and answers; Date values are written by
 * `isoString`. Anything else (strings, numbers, invalid dates) is graphql-scalars' own serialize.
 */
const base = GraphQLDateTimeISO.toConfig();
export const DateTimeISO = new GraphQLScalarType({
  ...base,
  serialize(value: unknown) {
    if (value instanceof Date && value.getTime() === value.getTime()) return isoString(value);
    return base.serialize(value);
  },
});
