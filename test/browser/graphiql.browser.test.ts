import { describeBrowser, useBrowser } from '../support/browser';
import { api, ROOT_TOKEN } from '../support/test-app';

/**
 * GraphiQL in a real headless Chromium (Debian's package): the page loads with the network cut off
 * from everything but this server, runs a query and shows the result. Mandatory in CI
 * (REQUIRE_BROWSER=1, .ci/run installs chromium); reported as skipped on a machine without it.
 */

describeBrowser('GraphiQL browser test')('GraphiQL in headless Chromium', () => {
  const env = useBrowser('browser-group', { subscriptions: true });

  it('loads offline, runs a query and shows the result', async () => {
    const page = await env.browser.newPage();
    const external: string[] = [];
    // Offline: any request that is not to this server is recorded and aborted.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(env.base) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    // The query comes in through GraphiQL's ?query= parameter (typing into Monaco doubles auto-closed braces).
    // GraphiQL introspects the schema first; that POST must succeed (it is exempt from the query limits).
    const introspection = page.waitForResponse(
      (r) => r.url() === `${env.base}/graphql` && r.request().method() === 'POST',
      { timeout: 30000 },
    );
    await page.goto(`${env.base}/graphql?query=${encodeURIComponent('{ groups { nodes { fullPath } } }')}`, {
      waitUntil: 'load',
    });
    expect((await introspection).status()).toBe(200);
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30000 });
    await page.locator('.graphiql-execute-button').click();
    await page.waitForFunction(
      () => document.querySelector('.graphiql-response')?.textContent?.includes('browser-group'),
      undefined,
      { timeout: 30000 },
    );
    const text = await page.locator('.graphiql-response').innerText();
    expect(text).toContain('browser-group');
    expect(external).toEqual([]);
    await page.screenshot({ path: '/tmp/graphiql.png' }).catch(() => undefined);
  }, 90000);

  it('runs a subscription over graphql-ws with the token from the headers pane, and shows each event', async () => {
    const page = await env.browser.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    // What a user types into the headers pane (GraphiQL keeps it in localStorage).
    await page.addInitScript((token) => {
      localStorage.setItem('graphiql:headers', JSON.stringify({ 'PRIVATE-TOKEN': token }));
    }, ROOT_TOKEN);
    const query = 'subscription { featureFlagChanged { name deleted } }';
    await page.goto(`${env.base}/graphql?query=${encodeURIComponent(query)}`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30000 });
    await page.locator('.graphiql-execute-button').click();
    // The subscription is running once its socket is open; then a change through REST reaches the page.
    for (let i = 0; i < 50 && sockets.length === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(sockets).toEqual([`${env.base.replace('http', 'ws')}/graphql`]);
    await new Promise((r) => setTimeout(r, 500));
    await api(env.t, ROOT_TOKEN).post('/api/v4/features/graphiql_live').send({ value: 'true' }).expect(201);
    await page.waitForFunction(
      () => document.querySelector('.graphiql-response')?.textContent?.includes('graphiql_live'),
      undefined,
      { timeout: 30000 },
    );
    const text = await page.locator('.graphiql-response').innerText();
    expect(text).toMatch(/"deleted":\s*false/); // Monaco shows spaces as no-break spaces
    expect(text).not.toContain('errors');
  }, 90000);
});
