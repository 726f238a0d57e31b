import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createAppServer } from '../../src/core/runtime';
import { createGroup } from './factories';
import { setupTestApp, type TestApp } from './test-app';

/**
 * Debian's Chromium driven by playwright-core (test tools cannot download browsers here). Mandatory
 * in CI (REQUIRE_BROWSER=1, .ci/run installs chromium); reported as skipped on a machine without it.
 */
export function describeBrowser(name: string): jest.Describe {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const available = fs.existsSync(path);
  if (!available && process.env.REQUIRE_BROWSER === '1') throw new Error(`REQUIRE_BROWSER=1 but ${path} is missing`);
  if (!available)
    process.stderr.write(
      `\nSKIPPED: ${name} (no Chromium at ${path}; set CHROMIUM_PATH or install Debian's chromium)\n`,
    );
  return available ? describe : describe.skip;
}

export interface BrowserEnv {
  t: TestApp;
  browser: Browser;
  /** http://127.0.0.1:<port> of the app, served on a real socket. */
  base: string;
}

/**
 * beforeAll/afterAll: the app on a real port with one public group named `groupPath`, and a headless
 * Chromium. `subscriptions`: the server also answers GraphQL subscriptions (WebSocket upgrades on /graphql).
 */
export function useBrowser(groupPath: string, opts: { subscriptions?: boolean } = {}): BrowserEnv {
  const env = {} as BrowserEnv;
  let server: http.Server | undefined;
  beforeAll(async () => {
    env.t = await setupTestApp();
    await env.t.reset();
    await createGroup(env.t, { path: groupPath, name: groupPath, visibility: 'public' });
    server = createAppServer(env.t.app);
    if (opts.subscriptions) env.t.attach(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    env.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60000);
  afterAll(async () => {
    await env.browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await env.t?.close();
  });
  return env;
}
