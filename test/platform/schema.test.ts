import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../../src/core/graphql/schema';
import { MODULES } from '../../src/modules';

describe('schema.graphql', () => {
  it('is in sync with the code (run `npm run schema` after changing types)', async () => {
    const committed = fs.readFileSync(path.join(__dirname, '../../schema.graphql'), 'utf8');
    expect(printAppSchema(await buildAppSchema(MODULES))).toBe(committed);
  });
});
