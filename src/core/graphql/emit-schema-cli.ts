import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from './schema';

/** `npm run schema`: regenerates the committed schema.graphql from the code. */
async function main(): Promise<void> {
  const target = path.resolve(__dirname, '../../../schema.graphql');
  fs.writeFileSync(target, printAppSchema(await buildAppSchema()));
  process.stdout.write(`wrote ${target}\n`);
}

void main();
