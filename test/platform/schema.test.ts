import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../../src/core/graphql/schema';
import { MODULES } from '../../src/modules';

describe('schema.graphql', () => {
  it('is in sync with the code (run `npm run schema` after changing types)', async () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../schema.graphql'), 'utf8');
    expect(printAppSchema(await buildAppSchema(MODULES))).toBe(committed);
  });

  it('describes fields in GraphQL terms: no spec section numbers, no REST routes', async () => {
    const text = printAppSchema(await buildAppSchema(MODULES));
    const blocks = [...text.matchAll(/"""([\s\S]*?)"""/g)].map((m) => m[1]);
    const inline = [...text.matchAll(/^\s*"([^"\n]+)"\s*$/gm)].map((m) => m[1]);
    const descriptions = [...blocks, ...inline];
    expect(descriptions.length).toBeGreaterThan(100);
    expect(descriptions.filter((d) => /\bspec \d|\b(GET|POST|PUT|DELETE) \/[a-z]/.test(d))).toEqual([]);
  });
});
