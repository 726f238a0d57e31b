import crypto from 'node:crypto';
import type { renderGraphiQL as RenderGraphiQL } from '@graphql-yoga/render-graphiql';
import { CSP_LOCKDOWN } from '../http/security-headers';

let page: string | undefined;

/**
 * Subscriptions typed into GraphiQL run over graphql-ws (docs/graphql.md#subscriptions-live-updates),
 * authenticated as its HTTP requests are: graphql-ws sends its `connection_init` payload as the
 * connection's headers, and this script fills that payload with the headers pane's JSON (GraphiQL keeps
 * it in localStorage under `graphiql:headers`), so `{"PRIVATE-TOKEN": "…"}` there covers both.
 */
const WS_HEADERS_SCRIPT = `(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const msg = JSON.parse(data);
      if (msg && msg.type === 'connection_init') {
        const headers = JSON.parse(localStorage.getItem('graphiql:headers') || '{}');
        if (headers && typeof headers === 'object') data = JSON.stringify({ ...msg, payload: { ...headers, ...(msg.payload || {}) } });
      }
    } catch (e) {}
    return send.call(this, data);
  };
})();`;

/** One self-contained GraphiQL page (React, GraphiQL and editor inline): works offline, no CDN. */
export function graphiqlPage(): string {
  if (page) return page;
  // Loaded on the first page view: the renderer holds about 13 MB of inline JavaScript and CSS that
  // an API-only process never needs (kept out of its resident memory).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { renderGraphiQL } = require('@graphql-yoga/render-graphiql') as { renderGraphiQL: typeof RenderGraphiQL };
  const html = renderGraphiQL({
    endpoint: '/graphql',
    title: 'GraphiQL — GitLab-compatible admin service',
    headerEditorEnabled: true,
    subscriptionsProtocol: 'WS',
    defaultQuery:
      '# Send your token in the headers pane: {"PRIVATE-TOKEN": "..."}\n{\n  groups(first: 5) {\n    count\n    nodes { id fullPath visibility }\n    pageInfo { hasNextPage endCursor }\n  }\n}\n',
  } as Parameters<typeof RenderGraphiQL>[0]);
  page = html.replace(/<head>/i, `<head><script>${WS_HEADERS_SCRIPT}</script>`);
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
