import { readParams } from '../../src/rest/params';

/** Grape's `absence` (environment slug) and `allow_blank: false` (pages certificate/key), spec 4.27 and 4.31. */
describe('parameter exceptions: absence and allowBlank', () => {
  const specs = {
    name: { type: 'string' as const, required: true, arg: 'input.name' },
    slug: { type: 'string' as const, arg: '-', absence: 'is automatically generated and cannot be changed' },
    certificate: { type: 'string' as const, arg: 'input.certificate', allowBlank: false as const },
  };

  it('absence: sending the parameter at all is a 400, joined in declaration order', () => {
    expect(() => readParams(specs, [], {}, { slug: 'x' }, {})).toThrow(
      'name is missing, slug is automatically generated and cannot be changed',
    );
    expect(() => readParams(specs, [], { slug: '' }, { name: 'a' }, {})).toThrow(
      'slug is automatically generated and cannot be changed',
    );
    expect(readParams(specs, [], {}, { name: 'a' }, {}).variables).toEqual({ input: { name: 'a' } });
  });

  it('allowBlank false: a blank string is "<name> is empty" but still counts as sent for the rules', () => {
    expect(() =>
      readParams(specs, [{ allOrNoneOf: ['certificate', 'name'] }], {}, { name: 'a', certificate: '  ' }, {}),
    ).toThrow('certificate is empty');
    expect(() =>
      readParams(
        { ...specs, name: { ...specs.name, required: false } },
        [{ allOrNoneOf: ['certificate', 'name'] }],
        {},
        { certificate: '' },
        {},
      ),
    ).toThrow('certificate is empty, certificate, name provide all or none of parameters');
    expect(readParams(specs, [], {}, { name: 'a', certificate: 'PEM' }, {}).variables).toEqual({
      input: { name: 'a', certificate: 'PEM' },
    });
  });
});
