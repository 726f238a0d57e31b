import fs from 'node:fs';
import path from 'node:path';

/**
 * A module is a room: its `index.ts` is its door, and other code uses only what that exports
 * (../shared STYLE, "A module is a room"; docs/architecture.md). This test reads every import in src/
 * and lists (a) imports of another module's internal file and (b) import cycles between modules.
 * The walls are being put up: what exists today is listed in module-walls.baseline.json, and the test
 * fails on any import or cycle not listed there, and on any listed entry that is gone (so the list
 * only shrinks: delete the entry when you remove the import).
 */
const SRC = path.resolve(__dirname, '../../src');
const BASELINE = path.join(__dirname, 'module-walls.baseline.json');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** `modules/<name>` of a file under src/modules, else undefined. */
function moduleOf(file: string): string | undefined {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel[0] === 'modules' && rel.length > 2 ? rel[1] : undefined;
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s+'([^']+)'|require\('([^']+)'\)/g;

function imports(): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      out.push({ from: path.relative(SRC, file), to: path.relative(SRC, target) });
    }
  }
  return out;
}

function deepImports(all: { from: string; to: string }[]): string[] {
  const out = new Set<string>();
  for (const { from, to } of all) {
    const target = moduleOf(path.join(SRC, to) + '.ts') ?? moduleOf(path.join(SRC, to, 'index.ts'));
    if (!target) continue;
    const source = moduleOf(path.join(SRC, from));
    if (source === target) continue;
    const door = to === `modules/${target}` || to === `modules/${target}/index`;
    if (!door) out.add(`${from} -> ${to}`);
  }
  return [...out].sort();
}

/** Cycles in the graph of modules (an edge per import of any file of another module), each as its sorted member list. */
function moduleCycles(all: { from: string; to: string }[]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of all) {
    const a = moduleOf(path.join(SRC, from));
    const b = moduleOf(path.join(SRC, to) + '.ts') ?? moduleOf(path.join(SRC, to, 'index.ts'));
    if (!a || !b || a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
  // Tarjan's strongly connected components: each component of more than one module is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort().join(' <-> '));
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return out.sort();
}

describe('module walls', () => {
  const all = imports();
  const baseline = JSON.parse(fs.readFileSync(BASELINE, 'utf8')) as { deepImports: string[]; cycles: string[] };

  it("no import of another module's internal file beyond the shrinking baseline", () => {
    const now = deepImports(all);
    expect({
      added: now.filter((i) => !baseline.deepImports.includes(i)),
      gone: baseline.deepImports.filter((i) => !now.includes(i)),
    }).toEqual({ added: [], gone: [] });
  });

  it('no module import cycle beyond the shrinking baseline', () => {
    const now = moduleCycles(all);
    expect({
      added: now.filter((c) => !baseline.cycles.includes(c)),
      gone: baseline.cycles.filter((c) => !now.includes(c)),
    }).toEqual({ added: [], gone: [] });
  });
});
