import qs from 'qs';
import { parseQuery } from '../../src/core/http/query-parser';

const oracle = (s: string) => qs.parse(s, { arrayLimit: 1000, depth: 5, parameterLimit: 10000 });

function same(s: string): void {
  const got = parseQuery(s);
  const want = oracle(s);
  if (JSON.stringify(got) !== JSON.stringify(want) || Object.getPrototypeOf(got) !== Object.getPrototypeOf(want)) {
    throw new Error(`${JSON.stringify(s)}: ${JSON.stringify(got)} !== ${JSON.stringify(want)}`);
  }
}

describe('the query parser (qs, read directly when flat)', () => {
  it('reads flat query strings as qs does', () => {
    expect(parseQuery('all_available=true&per_page=20')).toEqual({ all_available: 'true', per_page: '20' });
    expect(parseQuery('search=a+b%20c&x')).toEqual({ search: 'a b c', x: '' });
    expect(parseQuery('a=1&a=2')).toEqual({ a: ['1', '2'] });
    expect(parseQuery('tags[]=a&tags[]=b')).toEqual({ tags: ['a', 'b'] });
    expect(parseQuery('__proto__=x&toString=1&ok=1')).toEqual({ ok: '1' });
    expect(Object.getPrototypeOf(parseQuery('a=1'))).toBe(Object.prototype);
    // express passes null for a URL without `?`
    expect(parseQuery(null)).toEqual(qs.parse(null as unknown as string));
    expect(parseQuery(undefined)).toEqual({});
  });

  it('agrees with qs on edge cases and on 20,000 random strings', () => {
    for (const s of [
      '',
      '&',
      '=',
      '=a',
      'a',
      'a=',
      'a==b',
      'a=%ZZ',
      '%ZZ=1',
      'a=%',
      'a.b=c',
      'a=1&&b=2',
      'a%5Bb%5D=1',
      'a%5bb%5d=1',
      'a[b]=1',
      'a]=1',
      'constructor=1',
      'hasOwnProperty=x',
      '%5F_proto__=1',
      '__proto__[x]=1',
      'a=%C3%A9',
      '%C3%A9=1',
      'a+b=c+d',
      Array.from({ length: 150 }, (_, i) => `k${i}=${i}`).join('&'),
      `a=${'x'.repeat(9000)}`,
    ])
      same(s);
    const atoms = [
      'a',
      'b',
      'per_page',
      '=',
      '=',
      '&',
      '&',
      '+',
      '%',
      '%20',
      '%2B',
      '%3D',
      '%26',
      '%C3%A9',
      '%E9',
      '.',
      '_',
      '1',
      'é',
      '[',
      ']',
      '%5B',
      '%5d',
      '__proto__',
      'toString',
      'constructor',
      'valueOf',
      ' ',
    ];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 20000; k += 1) {
      let s = '';
      const n = rnd(12);
      for (let i = 0; i < n; i += 1) s += atoms[rnd(atoms.length)];
      same(s);
    }
  });
});
