import crypto from 'node:crypto';
import type { renderGraphiQL as RenderGraphiQL } from '@graphql-yoga/render-graphiql';
import { CSP_LOCKDOWN } from '../http/security-headers';

let page: string | undefined;

/** One self-contained GraphiQL page (React, GraphiQL and editor inline): works offline, no CDN. */
export function graphiqlPage(): string {
  if (page) return page;
  // Loaded on the first page view: the renderer holds about 13 MB of inline JavaScript and CSS that
  // an API-only process never needs (kept out of its resident memory).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { renderGraphiQL } = require('@graphql-yoga/render-graphiql') as { renderGraphiQL: typeof RenderGraphiQL };
  page = renderGraphiQL({
    endpoint: '/graphql',
    title: 'GraphiQL — GitLab-compatible admin service',
    headerEditorEnabled: true,
    defaultQuery:
      '# Send your token in the headers pane: {"PRIVATE-TOKEN": "..."}\n{\n  groups(perPage: 5) {\n    total\n    nodes { id fullPath visibility }\n  }\n}\n',
  } as Parameters<typeof RenderGraphiQL>[0]);
  return page;
}

let csp: string | undefined;

/**
 * The page's Content-Security-Policy: its inline scripts by SHA-256 hash (no 'unsafe-inline' for
 * scripts), Monaco's editor workers from blob: URLs, inline styles (the editor injects them at run
 * time), data: fonts and images, and requests only to this origin.
 */
export function graphiqlCsp(): string {
  if (csp) return csp;
  const hashes: string[] = [];
  for (const m of graphiqlPage().matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
    if (m[1]) hashes.push(`'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
  }
  csp = `default-src 'none'; script-src ${hashes.join(' ')}; worker-src blob:; style-src 'unsafe-inline'; font-src data:; img-src data: blob:; connect-src 'self'; ${CSP_LOCKDOWN}`;
  return csp;
}
