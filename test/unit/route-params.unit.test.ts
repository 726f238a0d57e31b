import { buildSchema } from 'graphql';
import { deriveParams, deriveRules } from '../../src/rest/derive-params';
import { readParams } from '../../src/rest/params';
import type { RouteDef } from '../../src/rest/route';

const schema = buildSchema(`
  scalar DateTimeISO
  enum Color { RED DARK_BLUE }
  input KV { key: String! value: String! }
  input ThingInput {
    "The thing's name."
    name: String!
    colorChoice: Color
    tagList: [String!]
    ids: [Int!]
    enabled: Boolean
    size: Float
    createdAt: DateTimeISO
    metricsEnabled: Boolean
    metricsHost: String
    metricsPort: Int
    signinEnabled: Boolean
  }
  type Query { x: Int }
  type Mutation { updateThing(id: ID!, input: ThingInput!, customAttributes: [KV!], perPage: Int): Int }
`);
const args = schema.getMutationType()!.getFields().updateThing.args;
const route = (over: Partial<RouteDef> = {}): RouteDef => ({
  method: 'PUT',
  path: '/things/:id',
  field: 'Mutation.updateThing',
  summary: 's',
  tag: 't',
  ...over,
});

describe('REST parameters derived from GraphQL arguments', () => {
  it('derives names, types, enum values, lists, input paths, required and descriptions', () => {
    const p = deriveParams(route(), args);
    expect(Object.keys(p)).toEqual([
      'id',
      'name',
      'color_choice',
      'tag_list',
      'ids',
      'enabled',
      'size',
      'created_at',
      'metrics_enabled',
      'metrics_host',
      'metrics_port',
      'signin_enabled',
      'custom_attributes',
      'per_page',
    ]);
    expect(p.id).toEqual({ type: 'id', required: true, arg: 'id', description: undefined });
    expect(p.name).toEqual({ type: 'string', required: true, arg: 'input.name', description: "The thing's name." });
    expect(p.color_choice).toEqual({
      type: 'enum',
      values: ['red', 'dark_blue'],
      required: false,
      arg: 'input.colorChoice',
      description: undefined,
    });
    expect([
      p.tag_list.type,
      p.ids.type,
      p.enabled.type,
      p.size.type,
      p.created_at.type,
      p.custom_attributes.type,
    ]).toEqual(['stringArray', 'intArray', 'bool', 'float', 'datetime', 'hash']);
    expect([p.custom_attributes.arg, p.per_page.arg]).toEqual(['customAttributes', 'perPage']);
  });

  it('a route lists only exceptions: they come first, in order, and override or rename', () => {
    const p = deriveParams(
      route({
        params: {
          metrics_port: { notFound: 'Thing', description: 'Port.' },
          identifier: { arg: 'id' },
          size: { type: 'int' },
          simple: { type: 'bool' },
          signin: { aliasOf: 'signin_enabled' },
          name: { required: false },
        },
        path: '/things/:identifier',
      }),
      args,
    );
    expect(Object.keys(p).slice(0, 6)).toEqual(['metrics_port', 'identifier', 'size', 'simple', 'signin', 'name']);
    expect(p.id).toBeUndefined();
    expect(p.identifier).toMatchObject({ type: 'id', arg: 'id' });
    expect(p.metrics_port).toMatchObject({
      type: 'int',
      notFound: 'Thing',
      description: 'Port.',
      arg: 'input.metricsPort',
    });
    expect(p.size).toMatchObject({ type: 'int', arg: 'input.size' });
    expect(p.simple).toEqual({ type: 'bool', arg: '-' });
    expect(p.signin).toMatchObject({ type: 'bool', arg: 'input.signinEnabled', required: false });
    expect(p.signin_enabled).toBeDefined();
    expect(p.name.required).toBe(false);
  });

  it('fails at compile time on a parameter without argument or type, an unknown path parameter or rule name', () => {
    expect(() => deriveParams(route({ params: { nope: {} } }), args)).toThrow(
      'parameter nope matches no GraphQL argument',
    );
    expect(() => deriveParams(route({ path: '/things/:thing_id' }), args)).toThrow(
      'path parameter thing_id has no GraphQL argument',
    );
    const withRules = (rules: RouteDef['rules']) => deriveRules(route({ rules }), deriveParams(route({ rules }), args));
    expect(() => withRules([{ atLeastOneOf: ['name', 'nope'] }])).toThrow('rule names unknown parameter nope');
  });
});

describe('parameter rules (Grape given / at_least_one_of / mutually_exclusive / all_or_none_of)', () => {
  const errorOf = (rules: RouteDef['rules'], body: Record<string, unknown>): string | undefined => {
    const r = route({ rules, params: { name: { required: false } } });
    try {
      const params = deriveParams(r, args);
      readParams(params, deriveRules(r, params), {}, body, { id: '1' });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('given x: true → requires a, b: only when the switch is sent true', () => {
    const rules = [{ given: 'metrics_enabled', requires: ['metrics_host', 'metrics_port'] }];
    expect(errorOf(rules, { metrics_enabled: 'true' })).toBe('metrics_host is missing, metrics_port is missing');
    expect(errorOf(rules, { metrics_enabled: 'true', metrics_host: 'h' })).toBe('metrics_port is missing');
    expect(errorOf(rules, { metrics_enabled: 'false' })).toBeUndefined();
    expect(errorOf(rules, {})).toBeUndefined();
  });

  it("at_least_one_of 'input' is every parameter of the input argument, an alias after its field", () => {
    const r = route({ params: { signin: { aliasOf: 'signin_enabled' } }, rules: [{ atLeastOneOf: 'input' }] });
    const [rule] = deriveRules(r, deriveParams(r, args));
    expect(rule).toEqual({
      atLeastOneOf: [
        'name',
        'color_choice',
        'tag_list',
        'ids',
        'enabled',
        'size',
        'created_at',
        'metrics_enabled',
        'metrics_host',
        'metrics_port',
        'signin_enabled',
        'signin',
      ],
    });
    expect(errorOf([{ atLeastOneOf: 'input' }], { per_page: 2 })).toMatch(
      /^name, color_choice, .*, signin_enabled are missing, at least one parameter must be provided$/,
    );
    expect(errorOf([{ atLeastOneOf: 'input' }], { metrics_port: 2 })).toBeUndefined();
  });

  it('at_least_one_of, mutually_exclusive and all_or_none_of use GitLab’s messages', () => {
    expect(errorOf([{ atLeastOneOf: ['name', 'size'] }], {})).toBe(
      'name, size are missing, at least one parameter must be provided',
    );
    expect(errorOf([{ atLeastOneOf: ['name', 'size'] }], { size: 2 })).toBeUndefined();
    expect(
      errorOf([{ mutuallyExclusive: ['enabled', 'signin_enabled', 'metrics_enabled'] }], {
        enabled: true,
        metrics_enabled: false,
      }),
    ).toBe('enabled, metrics_enabled are mutually exclusive');
    expect(errorOf([{ mutuallyExclusive: ['enabled', 'signin_enabled'] }], { enabled: true })).toBeUndefined();
    expect(errorOf([{ allOrNoneOf: ['metrics_host', 'metrics_port'] }], { metrics_host: 'h' })).toBe(
      'metrics_host, metrics_port provide all or none of parameters',
    );
    expect(errorOf([{ allOrNoneOf: ['metrics_host', 'metrics_port'] }], {})).toBeUndefined();
  });

  it('joins coercion problems and rule problems in order, and maps values to GraphQL variables', () => {
    const r = route({ rules: [{ given: 'enabled', requires: ['size'] }] });
    expect(() =>
      readParams(deriveParams(r, args), r.rules!, {}, { enabled: 'yes', color_choice: 'green' }, { id: '1' }),
    ).toThrow('name is missing, color_choice does not have a valid value, size is missing');
    const { variables } = readParams(
      deriveParams(r, args),
      [],
      { per_page: '5' },
      { name: 'n', color_choice: 'dark_blue', custom_attributes: { a: 'b' } },
      { id: '7' },
    );
    expect(variables).toEqual({
      id: '7',
      perPage: 5,
      input: { name: 'n', colorChoice: 'DARK_BLUE' },
      customAttributes: [{ key: 'a', value: 'b' }],
    });
  });
});
