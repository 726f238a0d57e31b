import fs from 'node:fs';
import path from 'node:path';
import { buildAppSchema, printAppSchema } from '../core/graphql/schema';
import { MODULES } from '../modules';

/** `npm run schema`: regenerates the committed schema.graphql from the code. */
async function main(): Promise<void> {
  const target = path.resolve(__dirname, '../../schema.graphql');
  fs.writeFileSync(target, printAppSchema(await buildAppSchema(MODULES)));
  process.stdout.write(`wrote ${target}\n`);
}

void main();
