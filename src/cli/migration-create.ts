import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run migration:create -- <module> <what>`: writes an empty, hand-written migration into
 * src/modules/<module>/migrations/ (docs/adding-a-resource.md). List it in the module's index.ts.
 */
function main(): void {
  const [module, what] = process.argv.slice(2);
  if (!module || !what || !/^[a-z][a-z0-9-]*$/.test(module) || !/^[a-z][a-z0-9_]*$/.test(what)) {
    process.stderr.write('usage: npm run migration:create -- <module-folder> <snake_case_what>\n');
    process.exit(2);
  }
  const root = path.resolve(__dirname, '../../src/modules', module);
  if (!fs.existsSync(root)) {
    process.stderr.write(`no module folder ${root}\n`);
    process.exit(2);
  }
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const name = `Migration${stamp}_${what}`;
  const cls = `Migration${stamp}${what.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase())}`;
  const dir = path.join(root, 'migrations');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(
    file,
    `import { Migration } from '@mikro-orm/migrations';

/**
 * ${what.replace(/_/g, ' ')}: every index deliberate (one per list filter and ORDER BY). Expand only: the
 * previous release runs on this schema too (docs/operations.md#upgrades-and-rollbacks).
 */
export class ${cls} extends Migration {
  override async up(): Promise<void> {
    this.addSql(\`\`);
  }
}
`,
  );
  process.stdout.write(
    `wrote ${file}\nadd to src/modules/${module}/index.ts: migrations: [{ name: '${name}', class: ${cls} }]\n`,
  );
}

main();
