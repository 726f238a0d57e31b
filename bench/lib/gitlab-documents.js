// GitLab's own frontend GraphQL documents for the growth bench (docs/growth.md#gitlabs-frontend-documents),
// read from the copies the tests run (test/graphql/gitlab-frontend/documents, and reconstructed/ for the
// few imports GitLab's index lacked) and resolved the way test/graphql/gitlab-frontend/load.ts does it,
// which is how GitLab's webpack loader and Apollo Client send them: `#import` lines inlined (`~/` and
// `ee_else_ce/` are app/assets/javascripts/, the CE build), a fragment imported twice kept once,
// `@client` fields and `@connection` directives removed (the documents the bench sends have neither, so
// load.ts's pruning of what such a removal empties is left out). The bench is plain node, so this is the
// same resolution in JavaScript rather than the TypeScript loader itself.
const fs = require('node:fs');
const path = require('node:path');
const { Kind, parse, print, visit } = require('graphql');

const ROOT = path.resolve(__dirname, '../../test/graphql/gitlab-frontend');
const DIRS = [path.join(ROOT, 'documents'), path.join(ROOT, 'reconstructed')];
const IMPORT = /^#import\s+"([^"]+)"\s*$/;

function resolveImport(from, spec) {
  if (spec.startsWith('~/')) return path.posix.normalize(spec.slice(2));
  if (spec.startsWith('ee_else_ce/')) return path.posix.normalize(spec.slice('ee_else_ce/'.length));
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
}

function readStored(rel) {
  for (const dir of DIRS) {
    const file = path.join(dir, rel);
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  }
  throw new Error(`no stored GitLab document ${rel} (test/graphql/gitlab-frontend)`);
}

/** `{ query, operationName }` as GitLab's frontend posts the document at `rel` (relative to app/assets/javascripts/). */
function gitlabDocument(rel) {
  const files = [];
  const texts = [];
  const add = (file) => {
    if (files.includes(file)) return;
    files.push(file);
    const text = readStored(file);
    for (const line of text.split('\n')) {
      const m = IMPORT.exec(line.trim());
      if (m) add(resolveImport(file, m[1]));
    }
    texts.push(text);
  };
  add(rel);
  const seen = new Set();
  const parsed = parse(texts.join('\n'));
  const definitions = parsed.definitions.filter(
    (d) => d.kind !== Kind.FRAGMENT_DEFINITION || (!seen.has(d.name.value) && seen.add(d.name.value)),
  );
  const doc = visit(
    { ...parsed, definitions },
    {
      Field: (node) => (node.directives?.some((d) => d.name.value === 'client') ? null : undefined),
      Directive: (node) => (node.name.value === 'connection' ? null : undefined),
    },
  );
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  return { query: print(doc), operationName: op?.name?.value };
}

module.exports = { gitlabDocument };
