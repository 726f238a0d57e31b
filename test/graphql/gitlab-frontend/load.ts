import fs from 'node:fs';
import path from 'node:path';
import { DocumentNode, Kind, parse, print, visit } from 'graphql';

/**
 * Loads one of GitLab's frontend GraphQL documents the way GitLab's webpack graphql-tag loader and Apollo
 * Client would send it: `#import "..."` lines are resolved into one document with its fragments, and the
 * client-only parts (`@client` fields, `@connection`) are removed before the document reaches the server.
 * `@gl_introduced` stays: GitLab's server defines it, so a GitLab-compatible schema has to as well.
 */

/** GitLab's files, stored unmodified under their app/assets/javascripts/ relative path. */
export const DOCUMENTS_DIR = path.join(__dirname, 'documents');
/** Imported files the reference index did not hold, written from GitLab's pattern (see documents/README.md). */
export const RECONSTRUCTED_DIR = path.join(__dirname, 'reconstructed');

export interface LoadedDocument {
  /** The path relative to app/assets/javascripts/, e.g. `ci/runner/graphql/list/all_runners.query.graphql`. */
  path: string;
  /** What GitLab's frontend would post: imports inlined, client-only parts removed (undefined: nothing is sent). */
  document?: DocumentNode;
  /** The same as text. */
  source?: string;
  /** Every file the document pulled in, itself first. */
  files: string[];
  /** Imports found in neither folder. */
  missingImports: string[];
  /** `@client` fields (local state GitLab's frontend resolves in the browser), as `Type-less path` strings. */
  clientFields: string[];
  /** True when every operation's selection was local state: GitLab's frontend sends nothing. */
  clientOnly: boolean;
}

const IMPORT = /^#import\s+"([^"]+)"\s*$/;

/** Maps an import to a relative path: `~/` and `ee_else_ce/` are app/assets/javascripts/ (the CE build). */
export function resolveImport(from: string, spec: string): string {
  if (spec.startsWith('~/')) return path.posix.normalize(spec.slice(2));
  if (spec.startsWith('ee_else_ce/')) return path.posix.normalize(spec.slice('ee_else_ce/'.length));
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
}

function readStored(rel: string): string | undefined {
  for (const dir of [DOCUMENTS_DIR, RECONSTRUCTED_DIR]) {
    const file = path.join(dir, rel);
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  }
  return undefined;
}

/** Removes `@client` fields (recording them) and `@connection` directives; drops fragments left unused. */
function stripClientOnly(doc: DocumentNode, clientFields: string[]): DocumentNode {
  const trail: string[] = [];
  let out = visit(doc, {
    Field: {
      enter(node) {
        const name = node.alias?.value ?? node.name.value;
        if (node.directives?.some((d) => d.name.value === 'client')) {
          clientFields.push([...trail, name].join('.'));
          return null;
        }
        trail.push(name);
        return undefined;
      },
      leave() {
        trail.pop();
      },
    },
    Directive(node) {
      return node.name.value === 'connection' ? null : undefined;
    },
  }) as DocumentNode;
  // A selection set emptied by the removal goes too (GitLab's Apollo link does the same).
  out = visit(out, {
    leave(node) {
      if ('selectionSet' in node && node.selectionSet && node.selectionSet.selections.length === 0) {
        return node.kind === Kind.OPERATION_DEFINITION || node.kind === Kind.FRAGMENT_DEFINITION ? undefined : null;
      }
      return undefined;
    },
  }) as DocumentNode;
  // Fragments no longer spread anywhere are not sent.
  for (;;) {
    const used = new Set<string>();
    visit(out, {
      FragmentSpread(node) {
        used.add(node.name.value);
      },
    });
    const kept = out.definitions.filter((d) => d.kind !== Kind.FRAGMENT_DEFINITION || used.has(d.name.value));
    if (kept.length === out.definitions.length) break;
    out = { ...out, definitions: kept };
  }
  return out;
}

export function loadDocument(rel: string): LoadedDocument {
  const files: string[] = [];
  const missingImports: string[] = [];
  const texts: string[] = [];
  const visitFile = (file: string, importedFrom?: string) => {
    if (files.includes(file)) return;
    const text = readStored(file);
    if (text === undefined) {
      if (importedFrom === undefined) throw new Error(`no stored document ${file}`);
      missingImports.push(file);
      return;
    }
    files.push(file);
    for (const line of text.split('\n')) {
      const m = IMPORT.exec(line.trim());
      if (m) visitFile(resolveImport(file, m[1]), file);
    }
    texts.push(text);
  };
  visitFile(rel);
  const clientFields: string[] = [];
  const parsed = parse(texts.join('\n'));
  // A fragment imported along two routes is one definition.
  const seen = new Set<string>();
  const definitions = parsed.definitions.filter((d) => {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) return true;
    if (seen.has(d.name.value)) return false;
    seen.add(d.name.value);
    return true;
  });
  const stripped = stripClientOnly({ ...parsed, definitions }, clientFields);
  const operations = stripped.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const clientOnly =
    operations.length > 0 &&
    operations.every((o) => o.kind === Kind.OPERATION_DEFINITION && !o.selectionSet.selections.length);
  return {
    path: rel,
    document: clientOnly ? undefined : stripped,
    source: clientOnly ? undefined : print(stripped),
    files,
    missingImports,
    clientFields,
    clientOnly,
  };
}

/** Every stored file holding an operation (query, mutation, subscription), relative paths, sorted. */
export function listOperationDocuments(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.graphql')) {
        const doc = parse(fs.readFileSync(full, 'utf8'));
        if (doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION)) {
          out.push(path.relative(DOCUMENTS_DIR, full).split(path.sep).join('/'));
        }
      }
    }
  };
  walk(DOCUMENTS_DIR);
  return out.sort();
}
