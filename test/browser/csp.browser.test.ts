import type { Page } from 'playwright-core';
import { describeBrowser, useBrowser } from '../support/browser';

/**
 * GraphiQL and Swagger UI work under their Content-Security-Policy in a real headless
 * Chromium. Every violation (page, inline script, worker) is collected and must be none.
 */

describeBrowser('CSP browser test')('GraphiQL and Swagger UI under their CSP in headless Chromium', () => {
  const env = useBrowser('csp-group');

  /** A page whose CSP violations (events and console reports, workers included) land in `violations`. */
  async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
    const page = await env.browser.newPage();
    const violations: string[] = [];
    await page.exposeFunction('__cspViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        );
      });
    });
    const onConsole = (text: string) => {
      if (/Content Security Policy|Refused to/i.test(text)) violations.push(text);
    };
    page.on('console', (m) => onConsole(m.text()));
    page.on('worker', (w) => w.on('console', (m) => onConsole(m.text())));
    page.on('pageerror', (e) => onConsole(e.message));
    return { page, violations };
  }

  it('GraphiQL: the policy is sent, the editor and a query work, no violation', async () => {
    const { page, violations } = await watchedPage();
    const introspection = page.waitForResponse(
      (r) => r.url() === `${env.base}/graphql` && r.request().method() === 'POST',
      { timeout: 30000 },
    );
    const nav = await page.goto(
      `${env.base}/graphql?query=${encodeURIComponent('{ groups { nodes { fullPath } } }')}`,
      { waitUntil: 'load' },
    );
    expect(nav?.headers()['content-security-policy']).toMatch(/script-src 'sha256-/);
    expect((await introspection).status()).toBe(200);
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30000 });
    await page.locator('.graphiql-execute-button').click();
    await page.waitForFunction(
      () => document.querySelector('.graphiql-response')?.textContent?.includes('csp-group'),
      undefined,
      { timeout: 30000 },
    );
    // The editor (Monaco, with its workers) rendered the query.
    expect(await page.locator('.graphiql-query-editor').innerText()).toContain('fullPath');
    await page.waitForTimeout(500);
    expect(violations).toEqual([]);
  }, 90000);

  it('Swagger UI: the policy is sent, operations render and "Try it out" executes, no violation', async () => {
    const { page, violations } = await watchedPage();
    const nav = await page.goto(`${env.base}/api/v4/docs/`, { waitUntil: 'load' });
    expect(nav?.headers()['content-security-policy']).toContain("script-src 'self'");
    // Tags start collapsed (docExpansion 'none'): every tag renders; open the groups tag.
    const tag = page.locator('.opblock-tag', { hasText: /^groups/ }).first();
    await tag.waitFor({ timeout: 30000 });
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThanOrEqual(18);
    await tag.click();
    const op = page.locator('#operations-groups-get_groups, .opblock-get:has-text("/groups")').first();
    await op.waitFor({ timeout: 30000 });
    await op.locator('.opblock-summary').first().click();
    await page.locator('button.try-out__btn').first().click();
    const call = page.waitForResponse((r) => r.url().startsWith(`${env.base}/api/v4/groups`), { timeout: 30000 });
    await page.locator('button.execute').first().click();
    expect((await call).status()).toBe(200);
    await page.waitForSelector('.live-responses-table .response-col_status', { timeout: 30000 });
    expect(await page.locator('.live-responses-table').innerText()).toContain('csp-group');
    expect(violations).toEqual([]);
  }, 90000);
});
