import { getOperationAST, parse } from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { operationCost } from '../../src/core/graphql/query-limits';
import { MODULES } from '../../src/modules';
import { ROOT_TOKEN, api, useTestApp } from '../support/test-app';

/** GraphQL cost walk, document caps, variables and served page sizes. */
const t = useTestApp({ reset: 'once' });

/** A hostile request: fragment i spreads fragment i+1 twice (each extra fragment doubled the old walk). */
function doublingDocument(n: number): string {
  const frags = Array.from({ length: n }, (_x, i) => `fragment F${i} on Group { id ...F${i + 1} ...F${i + 1} }`);
  return `{ groups { nodes { ...F0 } } } ${frags.join(' ')} fragment F${n} on Group { id }`;
}

/** 30 project fields in one fragment (30 aliases, counted once by the document caps). */
const P30 = `fragment P on Project { ${Array.from({ length: 30 }, (_x, i) => `f${i}: name`).join(' ')} }`;

async function cost(query: string, variables: Record<string, unknown> = {}) {
  const doc = parse(query);
  return operationCost(publicView(await buildAppSchema(MODULES)), doc, getOperationAST(doc)!, variables);
}

describe('GraphQL cost walk', () => {
  it('walks each fragment once, however often it is spread', async () => {
    const doc = parse(doublingDocument(22));
    const walked: string[] = [];
    const result = operationCost(
      publicView(await buildAppSchema(MODULES)),
      doc,
      getOperationAST(doc)!,
      {},
      { onFragmentWalk: (name) => walked.push(name) },
    );
    expect(walked.sort()).toEqual(Array.from({ length: 23 }, (_x, i) => `F${i}`).sort());
    // The cost itself is the full expansion: 2^22 leaves are still counted.
    expect(result.cost).toBeGreaterThan(2 ** 22);
  });

  it('refuses 22 doubling fragments from an anonymous caller with 400 QUERY_TOO_COMPLEX', async () => {
    const query = doublingDocument(22);
    expect(query.length).toBeLessThan(1400);
    const res = await api(t).graphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.data).toBeUndefined();
  });

  it('caps the document before validation: tokens, aliases, fragment spreads, repeated fields', async () => {
    const cases: [string, RegExp][] = [
      [`{ groups { nodes { ${'id '.repeat(6000)} } } }`, /more than 5000 tokens/],
      [
        `{ ${Array.from({ length: 101 }, (_x, i) => `a${i}: currentUser { id }`).join(' ')} }`,
        /101 aliases; the maximum is 100/,
      ],
      [
        `{ groups { nodes { ${'...F '.repeat(101)} } } } fragment F on Group { id }`,
        /101 fragment spreads; the maximum is 100/,
      ],
      // graphql-js compares same-named fields pairwise while validating: refused before that walk.
      [`{ groups { nodes { ${'name(x: 1) '.repeat(11)} } } }`, /one field 11 times in a selection; the maximum is 10/],
    ];
    for (const [query, message] of cases) {
      const res = await api(t).graphql(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ message: expect.stringMatching(message), extensions: { code: 'QUERY_TOO_LARGE' } }],
      });
    }
  });

  it('names unknown types, fields, arguments and values without "Did you mean" (each suggestion compared the name with every type)', async () => {
    const unknownTypes = Array.from({ length: 60 }, (_x, i) => `fragment F${i} on Projectz${i} { id }`).join(' ');
    const unknownFields = Array.from({ length: 40 }, (_x, i) => `a${i}: projectz${i}`).join(' ');
    const res = await api(t).graphql(`{ ${unknownFields} } ${unknownTypes}`);
    expect(res.status).toBe(400);
    const messages = (res.body.errors as { message: string }[]).map((e) => e.message);
    expect(messages).toContain('Unknown type "Projectz0".');
    expect(messages).toContain('Cannot query field "projectz0" on type "Query".');
    expect(messages.filter((m) => m.includes('Did you mean'))).toEqual([]);
    const values = await api(t).graphql(`{ projects(sort: "nmae_asc", nonsense: 1) { count } }`);
    expect(values.status).toBe(400);
    expect(values.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'Unknown argument "nonsense" on field "Query.projects".',
    ]);
    const enumValue = await api(t).graphql(`{ runners(status: ONLNE) { count } }`);
    expect(enumValue.status).toBe(400);
    expect(enumValue.body.errors[0].message).toBe('Value "ONLNE" does not exist in "CiRunnerStatus" enum.');
  });

  it('still lets ordinary queries and repeated fields within the caps through', async () => {
    const res = await api(t, ROOT_TOKEN).graphql(
      `{ groups { nodes { id id ...F } } } fragment F on Group { id fullPath }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });
});

describe('GraphQL complexity', () => {
  it('counts a first variable at its value', async () => {
    const query = `query($p: Int) { ${Array.from({ length: 20 }, (_x, i) => `a${i}: projects(first: $p) { nodes { ...P } }`).join(' ')} } ${P30}`;
    const res = await api(t).graphql(query, { p: 100 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    // Each alias: the field, then per served row `nodes` and 30 fields.
    expect((await cost(query, { p: 100 })).cost).toBe(20 * (1 + 100 * 31));
    expect((await cost(query, { p: 1 })).cost).toBe(20 * (1 + 1 * 31));
    // A variable's default counts when no value is sent.
    expect((await cost(query.replace('$p: Int', '$p: Int = 50'))).cost).toBe(20 * (1 + 50 * 31));
  });

  it('counts a list without first or last as the 20 it is served as', async () => {
    for (const args of ['', '(first: null)', '(last: null)']) {
      const query = `{ ${Array.from({ length: 60 }, (_x, i) => `a${i}: projects${args} { nodes { id } }`).join(' ')} }`;
      expect((await cost(query)).cost).toBe(60 * (1 + 20 * 2));
    }
    const wide = `{ ${Array.from({ length: 60 }, (_x, i) => `a${i}: projects { nodes { ...P } }`).join(' ')} } ${P30}`;
    expect((await cost(wide)).cost).toBe(60 * (1 + 20 * 31));
    // Served, 60 aliases of one list field are refused before their complexity (at most 10 per selection).
    const res = await api(t).graphql(wide);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe(
      'Query selects the list field projects under more than 10 aliases in one selection; the maximum is 10',
    );
  });

  it('multiplies nested lists by their size: a connection by first (default 20), an unpaged list by its bound (Project.sharedWithGroups)', async () => {
    expect((await cost('{ group(id: "1") { projects { nodes { id } } } }')).cost).toBe(1 + 1 + 20 * (1 + 1));
    const query =
      '{ groups(first: 2) { nodes { projects(first: 100) { nodes { sharedWithGroups { groupId groupName } } } } } }';
    expect((await cost(query)).cost).toBe(1 + 2 * (1 + 1 + 100 * (1 + 1 + 100 * 2)));
    const res = await api(t).graphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('counts __typename, aliased or not', async () => {
    expect((await cost('{ a: __typename b: __typename __typename }')).cost).toBe(3);
    const typenames = Array.from({ length: 80 }, (_x, i) => `t${i}: __typename`).join(' ');
    const query = `{ ${[1, 2, 3, 4].map((i) => `p${i}: projects(first: 100) { nodes { ...T } }`).join(' ')} } fragment T on Project { ${typenames} }`;
    const res = await api(t).graphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('leaves introspection (GraphiQL) within the limits at a fixed cost', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    expect(await cost(getIntrospectionQuery())).toEqual({ depth: 0, cost: 100 });
  });
});
