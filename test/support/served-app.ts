import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupTestApp, type TestApp } from './test-app';

export interface ServedTestApp {
  /** The app (filled in beforeAll). */
  t: TestApp;
  /** Its base URL, `http://127.0.0.1:<port>` (filled in beforeAll). */
  host: string;
}

/**
 * The test app behind a real HTTP server on 127.0.0.1, for real clients (python-gitlab, gitbeaker) that
 * need a URL; its external URL is that address, so links in headers point back at it. The database is
 * reset once, or before each test with `resetEach`.
 */
export function useServedTestApp(opts: { resetEach?: boolean } = {}): ServedTestApp {
  const served = { t: {} as TestApp, host: '' };
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => served.t.app(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    served.host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(served.t, await setupTestApp({ externalUrl: served.host }));
    if (!opts.resetEach) await served.t.reset();
  }, 60000);
  if (opts.resetEach) beforeEach(() => served.t.reset());
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await served.t.close();
  });
  return served;
}
