import fs from 'node:fs';
import path from 'node:path';

/**
 * A module is a room: its `index.ts` is its door, and other code uses only what that exports
 * (../shared STYLE, "A module is a room"; docs/architecture.md, "Modules"). This test reads every import
 * in src/ and fails on (a) an import of another module's internal file, (b) an import cycle between
 * modules (the modules form a layered graph: docs/architecture.md lists the layers), (c) an import cycle
 * between any two files of src/, and (d) core/ or rest/ importing a module, or anything but the entry
 * points (main.ts, the CLIs) importing the module registry: core and ops receive the module list.
 */
const SRC = path.resolve(__dirname, '../../src');

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
  const edges: [string, string][] = [];
  for (const { from, to } of all) {
    const a = moduleOf(path.join(SRC, from));
    const b = moduleOf(path.join(SRC, to) + '.ts') ?? moduleOf(path.join(SRC, to, 'index.ts'));
    if (a && b && a !== b) edges.push([a, b]);
  }
  return components(edges);
}

/** Tarjan's strongly connected components of a directed graph: each of more than one node is a cycle. */
function components(edgeList: [string, string][]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const [a, b] of edgeList) {
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
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

/** Cycles between files (type-only imports included: a cycle of types still ties the files together). */
function fileCycles(all: { from: string; to: string }[]): string[] {
  const file = (to: string) => (fs.existsSync(path.join(SRC, `${to}.ts`)) ? `${to}.ts` : path.join(to, 'index.ts'));
  return components(all.map(({ from, to }) => [from, file(to)]));
}

describe('module walls', () => {
  const all = imports();

  it("imports no other module's internal file", () => {
    expect(deepImports(all)).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    expect(moduleCycles(all)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(fileCycles(all)).toEqual([]);
  });

  it('keeps core and rest free of modules, and the registry for the entry points', () => {
    const registry = (to: string) => to === 'modules' || to === 'modules/index';
    const entry = (from: string) => from === 'main.ts' || from.startsWith('cli/');
    const wrong = all.filter(
      ({ from, to }) =>
        ((from.startsWith('core/') || from.startsWith('rest/')) && to.startsWith('modules')) ||
        (registry(to) && !entry(from)),
    );
    expect(wrong.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });
});
