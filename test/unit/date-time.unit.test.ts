import { isoString, DateTimeISO } from '../../src/core/graphql/date-time';

/** core/graphql/date-time.ts: the hand-written ISO format answers exactly as Date.prototype.toISOString. */
describe('isoString', () => {
  it('matches toISOString at the edges of its range, on leap days and month ends', () => {
    const instants = [
      '2000-01-01T00:00:00.000Z',
      '2000-02-29T23:59:59.999Z',
      '2000-03-01T00:00:00.000Z',
      '2024-02-29T12:34:56.789Z',
      '2100-02-28T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2026-11-25T00:00:00.001Z',
      '2026-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59.999Z',
      '1999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '0099-06-01T00:00:00.000Z',
    ];
    for (const s of instants) expect(isoString(new Date(s))).toBe(s);
    expect(isoString(new Date(Date.UTC(10000, 0, 1)))).toBe(new Date(Date.UTC(10000, 0, 1)).toISOString());
    expect(isoString(new Date(-1))).toBe('1969-12-31T23:59:59.999Z');
  });

  it('matches toISOString on 200,000 random instants between 1900 and 2200', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 200_000; i += 1) {
      const d = new Date(Math.floor(Date.UTC(1900, 0, 1) + next() * (Date.UTC(2200, 0, 1) - Date.UTC(1900, 0, 1))));
      if (isoString(d) !== d.toISOString()) throw new Error(`${d.toISOString()} written as ${isoString(d)}`);
    }
  });

  it("the DateTimeISO scalar keeps graphql-scalars' answers for other values and refuses an invalid date", () => {
    expect(DateTimeISO.serialize(new Date('2026-11-25T10:00:00Z'))).toBe('2026-11-25T10:00:00.000Z');
    expect(DateTimeISO.serialize('2026-11-25T11:00:00+01:00')).toBe('2026-11-25T10:00:00.000Z');
    expect(() => DateTimeISO.serialize(new Date('nope'))).toThrow('DateTime cannot represent an invalid Date instance');
    expect(DateTimeISO.name).toBe('DateTimeISO');
  });
});
