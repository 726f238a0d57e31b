import { coerceParam } from '../../src/core/params/coerce';
import { parseIdOrPath } from '../../src/core/params/parse-id-or-path';

describe('GitLab parameter coercion', () => {
  it('booleans: true/false/1/0 and friends, case-insensitive; anything else is invalid', () => {
    for (const v of ['true', 'True', '1', 'yes', 't', true]) expect(coerceParam('b', { type: 'bool' }, v)).toBe(true);
    for (const v of ['false', 'FALSE', '0', 'no', 'f', false])
      expect(coerceParam('b', { type: 'bool' }, v)).toBe(false);
    expect(() => coerceParam('b', { type: 'bool' }, 'maybe')).toThrow('b is invalid');
  });

  it('integers reject fractions and text; beyond int4 is invalid, or the resource 404 when declared', () => {
    expect(coerceParam('n', { type: 'int' }, '42')).toBe(42);
    expect(() => coerceParam('n', { type: 'int' }, '4.2')).toThrow('n is invalid');
    expect(() => coerceParam('n', { type: 'int' }, '99999999999')).toThrow('n is invalid');
    expect(() => coerceParam('id', { type: 'int', notFound: 'User' }, '99999999999')).toThrow('404 User Not Found');
  });

  it('arrays from a[]=, comma lists and JSON arrays; enums', () => {
    expect(coerceParam('a', { type: 'intArray' }, ['1', '2'])).toEqual([1, 2]);
    expect(coerceParam('a', { type: 'intArray' }, '3,4')).toEqual([3, 4]);
    expect(coerceParam('t', { type: 'stringArray' }, 'ruby, mysql')).toEqual(['ruby', 'mysql']);
    expect(coerceParam('o', { type: 'enum', values: ['name'] }, 'name')).toBe('NAME');
    expect(() => coerceParam('o', { type: 'enum', values: ['name'] }, 'size')).toThrow('o does not have a valid value');
    expect(coerceParam('h', { type: 'hash' }, { tier: 'gold' })).toEqual([{ key: 'tier', value: 'gold' }]);
    expect(() => coerceParam('d', { type: 'date' }, '2020-13-45')).toThrow('d is invalid');
  });

  it('ids: digits are ids (beyond int4: none), the rest full paths', () => {
    expect(parseIdOrPath('12')).toEqual({ id: 12 });
    expect(parseIdOrPath('99999999999')).toEqual({ none: true });
    expect(parseIdOrPath('a/b')).toEqual({ path: 'a/b' });
  });
});
