import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../core/graphql/schema';
import { publicView } from '../core/graphql/views';
import { MODULES } from '../modules';

/**
 * `npm run schema`: regenerates the committed SDL: schema.graphql, what `/graphql` serves and REST
 * compiles against, and docs/schema.public.graphql, its public view without REST's parts
 * (core/graphql/views.ts; docs/graphql.md#two-views-of-one-schema).
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../..');
  const schema = await buildAppSchema(MODULES);
  for (const [file, view] of [
    ['schema.graphql', schema],
    ['docs/schema.public.graphql', publicView(schema)],
  ] as const) {
    fs.writeFileSync(path.join(root, file), printAppSchema(view));
    process.stdout.write(`wrote ${file}\n`);
  }
}

void main();
