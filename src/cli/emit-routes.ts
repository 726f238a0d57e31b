import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { MODULES } from '../modules';
import { renderRouteReference } from './route-reference';

/** `npm run docs:routes`: regenerates the committed docs/routes.md from the modules' route tables. */
async function main(): Promise<void> {
  const target = path.resolve(__dirname, '../../docs/routes.md');
  fs.writeFileSync(target, await renderRouteReference(MODULES));
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`docs:routes failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
