import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { compileQuery, isCompiledQuery } from '../../src/core/graphql/jit';

/**
 * A throw in what graphql-jit runs after a resolver returned (a getter on the returned
 * object, read as a plain field) must become that field's error, not an unhandled rejection that
 * stops the process or an operation that never finishes.
 */
const boom = () => {
  throw new Error('Cannot convert 0x to a BigInt');
};
const view = () => ({
  ok: 'fine',
  get bad(): string {
    return boom();
  },
});
const Item = new GraphQLObjectType({
  name: 'Item',
  fields: { ok: { type: GraphQLString }, bad: { type: GraphQLString } },
});
const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    asyncItem: { type: Item, resolve: async () => view() },
    syncItem: { type: Item, resolve: () => view() },
    asyncItems: { type: new GraphQLList(Item), resolve: async () => [view(), view()] },
    promisedItems: { type: new GraphQLList(Item), resolve: () => [Promise.resolve(view())] },
    requiredItem: { type: new GraphQLNonNull(Item), resolve: async () => view() },
    plain: { type: GraphQLInt, resolve: () => 1 },
  },
});
let mutations = 0;
const Mutation = new GraphQLObjectType({
  name: 'Mutation',
  fields: {
    first: { type: Item, resolve: async () => view() },
    second: { type: GraphQLInt, resolve: async () => (mutations += 1) },
  },
});
const schema = new GraphQLSchema({ query: Query, mutation: Mutation });

async function run(
  doc: string,
): Promise<{ data?: unknown; errors?: readonly { message: string; path?: readonly (string | number)[] }[] }> {
  const compiled = compileQuery(schema, parse(doc));
  if (!isCompiledQuery(compiled)) throw new Error('not compiled');
  return compiled.query(undefined, {}, {});
}

describe('graphql-jit continuations (core/runtime/graphql-jit-continuations.ts)', () => {
  const unhandled: unknown[] = [];
  const record = (e: unknown) => unhandled.push(e);
  beforeAll(() => process.on('unhandledRejection', record));
  afterAll(() => process.off('unhandledRejection', record));
  afterEach(async () => {
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
  });

  it('a getter throwing after an async resolver is that field’s error; siblings are kept', async () => {
    const result = await run('{ asyncItem { ok bad } plain }');
    expect(result.data).toEqual({ asyncItem: null, plain: 1 });
    expect(result.errors?.map((e) => [e.message, e.path])).toEqual([['Cannot convert 0x to a BigInt', ['asyncItem']]]);
  });

  it('the same after a synchronous resolver (no throw out of the compiled query)', async () => {
    const result = await run('{ syncItem { bad } plain }');
    expect(result.data).toEqual({ syncItem: null, plain: 1 });
    expect(result.errors?.map((e) => e.path)).toEqual([['syncItem']]);
  });

  it('lists and promised list items', async () => {
    const result = await run('{ asyncItems { ok bad } promisedItems { bad } }');
    expect(result.data).toEqual({ asyncItems: [null, null], promisedItems: [null] });
    expect(result.errors?.map((e) => e.path)).toEqual([
      ['asyncItems', 0],
      ['asyncItems', 1],
      ['promisedItems', 0],
    ]);
  });

  it('a non-null field nulls its parent, as graphql-js does', async () => {
    const result = await run('{ requiredItem { bad } plain }');
    expect(result.data).toBeNull();
    expect(result.errors?.length).toBe(1);
  });

  it('mutations after the failing one still run (the serial queue continues)', async () => {
    const before = mutations;
    const result = await run('mutation { first { bad } second }');
    expect(result.data).toEqual({ first: null, second: before + 1 });
    expect(result.errors?.map((e) => e.path)).toEqual([['first']]);
  });

  it('plain queries are unchanged', async () => {
    expect(await run('{ asyncItem { ok } syncItem { ok } asyncItems { ok } }')).toEqual({
      data: { asyncItem: { ok: 'fine' }, syncItem: { ok: 'fine' }, asyncItems: [{ ok: 'fine' }, { ok: 'fine' }] },
    });
  });
});
