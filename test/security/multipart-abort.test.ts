import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/app';
import { createLogger } from '../../src/core/logger';
import { MODULES } from '../../src/modules';
import { ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

/**
 * A client that aborts a multipart upload is not a server error. Anyone can do it, so it
 * must not write error lines (with stacks): one warning without a stack.
 */
const t = useTestApp();
type Line = Record<string, unknown> & { level: number; msg: string };
const lines: Line[] = [];
let server: http.Server;
let stop: () => Promise<void>;
let incoming: http.IncomingMessage | undefined;

beforeAll(async () => {
  const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  const built = await buildApp({
    orm: t.orm,
    logger,
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    modules: MODULES,
  });
  stop = built.stop;
  server = http.createServer(built.app);
  server.on('request', (req: http.IncomingMessage) => (incoming = req));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stop();
});

/** Resolves once `check` holds (polled on the event loop), or fails with `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a multipart upload aborted by the client', () => {
  it('logs one warning without a stack and no error line', async () => {
    const { port } = server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    incoming = undefined;
    socket.write(
      [
        'POST /api/v4/groups HTTP/1.1',
        'Host: gitlab.test',
        `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
        'Content-Type: multipart/form-data; boundary=B',
        `Content-Length: ${500 * 1024}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(`--B\r\nContent-Disposition: form-data; name="description"\r\n\r\n${'x'.repeat(32 * 1024)}`);
    // The parser is reading the body (the request is piped into it), then the client goes away.
    await until(() => incoming?.readableFlowing === true, 'the multipart parser');
    socket.destroy();
    await until(() => lines.some((l) => l.msg === 'client aborted the request body'), 'the warning');
    const warning = lines.find((l) => l.msg === 'client aborted the request body')!;
    expect(warning).toMatchObject({ level: 40, route: 'POST /groups' });
    expect(JSON.stringify(warning)).not.toMatch(/stack|    at /);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
