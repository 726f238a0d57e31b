import { pgTime } from '../../src/core/db/pg-time';

/** The definition pgTime keeps: PostgreSQL's text made ISO 8601 and given to the Date parser. */
function oracle(v: string): number {
  let iso = v.charCodeAt(10) === 32 ? `${v.slice(0, 10)}T${v.slice(11)}` : v;
  const sign = iso.charCodeAt(iso.length - 3);
  if (sign === 43 || sign === 45) iso += ':00';
  else if (!iso.endsWith('Z') && !/[+-]\d\d:\d\d$/.test(iso)) iso += 'Z';
  return new Date(iso).getTime();
}

const same = (v: string) => {
  const got = pgTime(v).getTime();
  const want = oracle(v);
  if (!(Number.isNaN(got) && Number.isNaN(want)) && got !== want) throw new Error(`${v}: ${got} !== ${want}`);
};

describe('pgTime (PostgreSQL timestamp text → Date)', () => {
  it('reads what PostgreSQL writes, as the Date parser does', () => {
    expect(pgTime('2026-11-22 10:00:00.123+00').toISOString()).toBe('2026-11-22T10:00:00.123Z');
    expect(pgTime('2026-11-22 10:00:00+00').toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(pgTime('2026-11-22 10:00:00.5-05').toISOString()).toBe('2026-11-22T15:00:00.500Z');
    expect(pgTime('2026-11-22 10:00:00.123456+05:30').toISOString()).toBe('2026-11-22T04:30:00.123Z');
    expect(pgTime('2026-11-22 10:00:00').toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(pgTime('2026-11-22T10:00:00.9999999Z').toISOString()).toBe('2026-11-22T10:00:00.999Z');
    expect(pgTime(null)).toBeNull();
    const d = new Date();
    expect(pgTime(d)).toBe(d);
  });

  it('agrees with the Date parser on edge cases and on odd text', () => {
    for (const v of [
      '2024-02-29 23:59:59.999+00',
      '2023-02-29 00:00:00+00',
      '2023-02-31 00:00:00+00',
      '2023-04-31 12:00:00+00',
      '1900-02-29 00:00:00+00',
      '2000-02-29 00:00:00+00',
      '2024-01-01 24:00:00+00',
      '2024-01-01 23:60:00+00',
      '2024-13-01 00:00:00+00',
      '2024-00-10 00:00:00+00',
      '0099-01-01 00:00:00+00',
      '0100-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
      '2024-01-01 00:00:00+05:30:15',
      '2024-01-01 00:00:00+05:30:00',
      '2024-01-01 00:00:00+14',
      '2024-01-01 00:00:00-12:45',
      '2024-01-01 00:00:00.+00',
      '2024-01-01 00:00:00 BC',
      '2024-01-01 00:00:00+00 BC',
      'infinity',
      '-infinity',
      '2024-01-01',
      '2024-1-01 00:00:00+00',
      '2024-01-01 00:00:00Zx',
      '2024-01-01 00:00:00+0',
      '2024-01-01 00:00:00+005',
      '2024-01-01x00:00:00+00',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.999+00',
      '2024-01-01 00:00:00.1+00',
      '2024-01-01 00:00:00.12+00',
    ])
      same(v);
  });

  it('agrees with the Date parser on 20,000 random timestamps in every layout PostgreSQL writes', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pad = (x: number, w: number) => String(x).padStart(w, '0');
    const zones = ['', '+00', '-05', '+05:30', '-09:30', '+14', 'Z', '+00:00'];
    for (let k = 0; k < 20000; k += 1) {
      const frac = rnd(7);
      const text =
        `${pad(100 + rnd(9900), 4)}-${pad(1 + rnd(12), 2)}-${pad(1 + rnd(31), 2)}${rnd(2) ? ' ' : 'T'}` +
        `${pad(rnd(24), 2)}:${pad(rnd(60), 2)}:${pad(rnd(60), 2)}${frac ? `.${pad(rnd(10 ** frac), frac)}` : ''}${zones[rnd(zones.length)]}`;
      same(text);
    }
  });
});
