import { GraphQLError, GraphQLSchema, validate } from 'graphql';
import { loadDocument } from './load';
import { MANIFEST } from './manifest';

/** One document's state against a schema. */
export interface DocumentStatus {
  path: string;
  status: 'validates' | 'fails' | 'client-only';
  errors: readonly GraphQLError[];
  /** What each error asks of the schema (`User.webPath`, `type CiRunner`, `Query.users(usernames:)`). */
  blockers: string[];
  clientFields: string[];
  missingImports: string[];
}

export function checkDocument(schema: GraphQLSchema, path: string): DocumentStatus {
  const loaded = loadDocument(path);
  if (!loaded.document) {
    return {
      path,
      status: 'client-only',
      errors: [],
      blockers: [],
      clientFields: loaded.clientFields,
      missingImports: [],
    };
  }
  const errors = validate(schema, loaded.document);
  return {
    path,
    status: errors.length ? 'fails' : 'validates',
    errors,
    blockers: [...new Set(errors.map((e) => blockerOf(e.message)))],
    clientFields: loaded.clientFields,
    missingImports: loaded.missingImports,
  };
}

/** Names what a validation message says is missing; other messages stand as themselves. */
export function blockerOf(message: string): string {
  let m = /^Unknown type "([^"]+)"/.exec(message);
  if (m) return `type ${m[1]}`;
  m = /^Cannot query field "([^"]+)" on type "([^"]+)"/.exec(message);
  if (m) return `${m[2]}.${m[1]}`;
  m = /^Unknown argument "([^"]+)" on field "([^"]+)"/.exec(message);
  if (m) return `${m[2]}(${m[1]}:)`;
  m = /^Unknown directive "([^"]+)"/.exec(message);
  if (m) return `directive ${m[1]}`;
  m = /^Enum "([^"]+)" cannot represent non-enum value: "?([^".]+)"?/.exec(message);
  if (m) return `${m[1]} value ${m[2]}`;
  m = /^Value "([^"]+)" does not exist in "([^"]+)" enum/.exec(message);
  if (m) return `${m[2]} value ${m[1]}`;
  return message.replace(/ Did you mean .*$/, '');
}

export function checkAll(schema: GraphQLSchema): DocumentStatus[] {
  return Object.keys(MANIFEST)
    .sort()
    .map((p) => checkDocument(schema, p));
}

/** Missing schema pieces ranked by how many in-scope documents each blocks. */
export function frequency(statuses: DocumentStatus[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const s of statuses) {
    if (!MANIFEST[s.path].inScope) continue;
    for (const b of s.blockers) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The generated part of docs/gitlab-frontend-documents.md. */
export function renderReport(statuses: DocumentStatus[]): string {
  const inScope = statuses.filter((s) => MANIFEST[s.path].inScope);
  const count = (st: DocumentStatus['status']) => inScope.filter((s) => s.status === st).length;
  const lines = [
    `In scope: ${inScope.length} documents; ${count('validates')} validate, ${count('fails')} fail, ` +
      `${count('client-only')} are local state only (GitLab's frontend sends nothing).`,
    '',
    '| Document | Area | Page | Status | First blocking errors |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const s of statuses) {
    const e = MANIFEST[s.path];
    const status = e.inScope ? s.status : `out of scope: ${e.outOfScope}`;
    const first = s.blockers.slice(0, 4).map((b) => '`' + cell(b) + '`');
    if (s.blockers.length > 4) first.push(`(+${s.blockers.length - 4})`);
    lines.push(`| \`${s.path}\` | ${e.area} | ${cell(e.page)} | ${status} | ${first.join(', ')} |`);
  }
  lines.push('', '### Missing pieces by documents blocked', '', '```');
  for (const [b, n] of frequency(statuses)) lines.push(`${b}: ${n}`);
  lines.push('```', '');
  return lines.join('\n');
}
