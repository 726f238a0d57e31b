import { bool, int, list, lowerEnum, obj, present, schemaOf, selectionOf, shape, str } from '../../src/core/wire/wire';

const Inner = shape('Inner', { id: int('id') });
const Outer = shape('Outer', {
  id: int('id'),
  full_name: str('fullName'),
  visibility: lowerEnum('visibility', ['private', 'public']),
  stats: obj('statistics', Inner, { includeIf: 'statistics', omitIfNull: true }),
  token: str('runnersToken', { omitIfNull: true }),
  items: list('items', Inner),
  on: bool('enabled'),
});

describe('wire shapes', () => {
  it('derive the GraphQL selection', () => {
    expect(selectionOf(Outer)).toBe('id fullName visibility statistics @include(if: $include_statistics) { id } runnersToken items { id } enabled');
  });

  it('present GitLab JSON in key order, omitting conditional keys', () => {
    const out = present(Outer, { id: 1, fullName: 'A / B', visibility: 'PUBLIC', runnersToken: null, items: [{ id: 2 }], enabled: true });
    expect(out).toEqual({ id: 1, full_name: 'A / B', visibility: 'public', items: [{ id: 2 }], on: true });
    expect(Object.keys(out)).toEqual(['id', 'full_name', 'visibility', 'items', 'on']);
  });

  it('describe themselves as OpenAPI schemas', () => {
    const components = {};
    expect(schemaOf(Outer, components)).toEqual({ $ref: '#/components/schemas/Outer' });
    expect(components).toHaveProperty('Inner');
    expect((components as Record<string, { required: string[] }>).Outer.required).toEqual(['id', 'full_name', 'visibility', 'items', 'on']);
  });
});
