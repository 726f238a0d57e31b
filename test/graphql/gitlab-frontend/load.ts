import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, 'documents/app/assets/javascripts');

/** GitLab's import aliases: the fragment files a `#import` line names, as its webpack config maps them. */
const ALIASES: Record<string, string> = {
  'graphql_shared/fragments/page_info.fragment.graphql': 'graphql_shared/fragments/pageInfo.fragment.graphql',
};

function resolve(from: string, spec: string): string {
  const relative = spec.startsWith('~/')
    ? spec.slice(2)
    : spec.startsWith('ee_else_ce/')
      ? spec.slice('ee_else_ce/'.length)
      : path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, from)), spec));
  return ALIASES[relative] ?? relative;
}

/**
 * A GitLab document (its path under app/assets/javascripts) with every fragment it imports, each file
 * once, as GitLab's graphql-tag loader builds it.
 */
export function gitlabDocument(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const imports = [...text.matchAll(/^#import "([^"]+)"$/gm)].map((m) => gitlabDocument(resolve(file, m[1]), seen));
  return [...imports, text.replace(/^#import .*$/gm, '')].join('\n');
}
