import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeBrowser, useBrowser } from '../support/browser';
import { ROOT_TOKEN } from '../support/test-app';

/**
 * Cross-origin calls in a real browser: a page served from another origin (another port) calls both
 * surfaces with a token header; Chromium sends the preflights and enforces the answers.
 */
describeBrowser('CORS browser test')('a dashboard on another origin', () => {
  const env = useBrowser('cors-group');
  let page: http.Server;
  let pageOrigin = '';
  beforeAll(async () => {
    page = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dashboard</title>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => page.close(resolve)));

  it('reads REST lists with their pagination headers and runs GraphQL with a token header', async () => {
    const tab = await env.browser.newPage();
    await tab.goto(pageOrigin);
    const result = await tab.evaluate(
      async ({ api, token }) => {
        const rest = await fetch(`${api}/api/v4/groups?per_page=1`, { headers: { 'PRIVATE-TOKEN': token } });
        const graphql = await fetch(`${api}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ currentUser { username } groups { nodes { fullPath } } }' }),
        });
        return {
          status: rest.status,
          total: rest.headers.get('x-total'),
          link: rest.headers.get('link'),
          groups: await rest.json(),
          graphql: await graphql.json(),
        };
      },
      { api: env.base, token: ROOT_TOKEN },
    );
    expect(result.status).toBe(200);
    expect(result.total).toBe('1');
    expect(result.link).toContain('rel="first"');
    expect(result.groups.map((g: { full_path: string }) => g.full_path)).toEqual(['cors-group']);
    expect(result.graphql).toEqual({
      data: { currentUser: { username: 'root' }, groups: { nodes: [{ fullPath: 'cors-group' }] } },
    });
    await tab.close();
  });
});
