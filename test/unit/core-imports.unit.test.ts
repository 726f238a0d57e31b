import fs from 'node:fs';
import path from 'node:path';

const SRC = path.join(__dirname, '../../src');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier of a file: static imports, re-exports, `import type`, dynamic import() and require(). */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const re of [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
  ]) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found;
}

function coreImportsOfModules(): string[] {
  const modules = path.join(SRC, 'modules');
  return filesUnder(path.join(SRC, 'core')).flatMap((file) =>
    specifiers(fs.readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.'))
      .filter((s) => {
        const target = path.resolve(path.dirname(file), s);
        return target === modules || target.startsWith(`${modules}${path.sep}`);
      })
      .map((s) => `${path.relative(SRC, file)} imports ${s}`),
  );
}

describe('src/core', () => {
  it('never imports from src/modules (modules plug in through src/modules/index.ts)', () => {
    expect(coreImportsOfModules()).toEqual([]);
  });

  it('the check sees the import forms it guards against', () => {
    expect(
      specifiers(
        `import { a } from '../../modules/x';\nimport type { B } from "../modules/y";\nexport * from '../modules/z';\nconst c = require('../modules/w');\nawait import('../modules/v');`,
      ),
    ).toEqual(['../../modules/x', '../modules/y', '../modules/z', '../modules/v', '../modules/w']);
  });
});
