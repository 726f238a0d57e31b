import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../core/graphql/schema';
import { publicView } from '../core/graphql/views';
import { MODULES } from '../modules';

/**
 * `npm run schema`: regenerates the committed SDL of both views (core/graphql/views.ts):
 * schema.graphql, the public GraphQL API, and docs/schema.internal.graphql, what REST routes compile against.
 */
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../..');
  const internal = await buildAppSchema(MODULES);
  for (const [file, schema] of [
    ['schema.graphql', publicView(internal)],
    ['docs/schema.internal.graphql', internal],
  ] as const) {
    fs.writeFileSync(path.join(root, file), printAppSchema(schema));
    process.stdout.write(`wrote ${file}\n`);
  }
}

void main();
