import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';

const committed = (file: string) => fs.readFileSync(path.join(__dirname, '../..', file), 'utf8');

describe('the committed schemas', () => {
  it('schema.graphql is the public view of the code (run `npm run schema` after changing types)', async () => {
    expect(printAppSchema(publicView(await buildAppSchema(MODULES)))).toBe(committed('schema.graphql'));
  });

  it('docs/schema.internal.graphql is the whole schema REST compiles against (same command)', async () => {
    expect(printAppSchema(await buildAppSchema(MODULES))).toBe(committed('docs/schema.internal.graphql'));
  });

  it('the public view has no deprecated field, no page/perPage argument and no REST page metadata', async () => {
    const text = printAppSchema(publicView(await buildAppSchema(MODULES)));
    expect(text).not.toContain('@deprecated');
    expect(text).not.toMatch(/^\s+(perPage|page|pagination)[:(]\s*(Int|PaginationMode|String)\b/m);
    expect(text).not.toMatch(/\b(totalPages|nextCursor)\b/);
    expect(text).not.toMatch(/^type \w+Page\b/m);
  });

  it('describes fields in GraphQL terms: no spec section numbers, no REST routes', async () => {
    const text = printAppSchema(publicView(await buildAppSchema(MODULES)));
    const blocks = [...text.matchAll(/"""([\s\S]*?)"""/g)].map((m) => m[1]);
    const inline = [...text.matchAll(/^\s*"([^"\n]+)"\s*$/gm)].map((m) => m[1]);
    const descriptions = [...blocks, ...inline];
    expect(descriptions.length).toBeGreaterThan(100);
    expect(descriptions.filter((d) => /\bspec \d|\b(GET|POST|PUT|DELETE) \/[a-z]/.test(d))).toEqual([]);
  });
});
