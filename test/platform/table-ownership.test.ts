import fs from 'node:fs';
import path from 'node:path';

/**
 * A table is read and written by the module that owns it (docs/architecture.md, "Tables"): the module
 * whose entity maps it (`@Entity({ tableName })`), else the module whose migration creates it. Other
 * modules use the owner's door (services, loaders, query fragments). This test reads the SQL text
 * and the entity imports of src/modules and lists every use of another module's table. Seeds (the
 * demo module, `*.seed.ts`) write test data wherever it goes and are not counted; nor are migrations.
 * The test fails on any other use.
 */
const MODULES = path.resolve(__dirname, '../../src/modules');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const moduleOf = (file: string) => path.relative(MODULES, file).split(path.sep)[0];
const isMigration = (file: string) => file.includes(`${path.sep}migrations${path.sep}`);

/** table → owning module, and entity class → its table. */
function owners(all: string[]): { table: Map<string, string>; entity: Map<string, string> } {
  const table = new Map<string, string>();
  const entity = new Map<string, string>();
  for (const f of all) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/@Entity\(\{ tableName: '(\w+)' \}\)\s*export class (\w+)/g)) {
      table.set(m[1], moduleOf(f));
      entity.set(m[2], m[1]);
    }
  }
  for (const f of all.filter(isMigration)) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/create table (?:if not exists )?"?(\w+)"?/gi))
      if (!table.has(m[1])) table.set(m[1], moduleOf(f));
  }
  return { table, entity };
}

function uses(): string[] {
  const all = files(MODULES);
  const { table, entity } = owners(all);
  const out = new Set<string>();
  for (const f of all) {
    const mod = moduleOf(f);
    if (isMigration(f) || mod === 'demo' || f.endsWith('.seed.ts') || f.endsWith('index.ts')) continue;
    const text = fs.readFileSync(f, 'utf8');
    const rel = path.relative(MODULES, f);
    for (const [t, owner] of table) {
      if (owner === mod) continue;
      if (new RegExp(`\\b(from|join|update|into)\\s+${t}\\b`).test(text)) out.add(`${rel} -> ${t} (${owner}) sql`);
    }
    // An entity class imported as a value from another module (em.find, persist, nativeDelete of its rows).
    for (const m of text.matchAll(/^import \{([^}]*)\} from '\.\.\/([\w-]+)';/gm)) {
      for (const name of m[1].split(',').map((n) => n.trim())) {
        const t = entity.get(name);
        if (t && table.get(t) !== mod && !name.startsWith('type ')) out.add(`${rel} -> ${t} (${table.get(t)}) entity`);
      }
    }
  }
  return [...out].sort();
}

describe('table ownership', () => {
  it("uses no other module's table", () => {
    expect(uses()).toEqual([]);
  });
});
