import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { useTestApp } from '../support/test-app';

/**
 * With PAGES_ENABLED=off the pages routes answer 404 before reading the body. A 3 MB
 * multipart upload (within the 4 MB a file route allows) gets its answer after the headers and a
 * first chunk, and the server closes the connection instead of reading the rest.
 */
const t = useTestApp({ env: { PAGES_ENABLED: 'false' } });
let server: http.Server;

beforeAll(async () => {
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const BODY_BYTES = 3 * 1024 * 1024;

interface Answer {
  status: number;
  headers: string;
  body: string;
  /** The server closed the connection without waiting for the rest of the body. */
  closedByServer: boolean;
  sent: number;
}

/** Sends the headers and the first 16 kB of a 3 MB multipart body, never the rest; resolves with the answer. */
function uploadStart(method: 'POST' | 'PUT', path: string, token: string): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    let sent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${method} ${path} before the body: ${JSON.stringify(raw.slice(0, 200))}`));
    }, 4000);
    socket.on('data', (c: Buffer) => (raw += c.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head, body = ''] = raw.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        headers: head.toLowerCase(),
        body,
        closedByServer: raw !== '',
        sent,
      });
    });
    socket.on('connect', () => {
      const first = `--B\r\nContent-Disposition: form-data; name="domain"\r\n\r\nbig.test\r\n--B\r\nContent-Disposition: form-data; name="certificate"; filename="c.pem"\r\n\r\n${'x'.repeat(16 * 1024)}`;
      const head = [
        `${method} ${path} HTTP/1.1`,
        'Host: gitlab.test',
        `PRIVATE-TOKEN: ${token}`,
        'Content-Type: multipart/form-data; boundary=B',
        `Content-Length: ${BODY_BYTES}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head + first);
      sent = first.length;
    });
  });
}

describe('PAGES_ENABLED=off: pages uploads are refused before the body is read', () => {
  it('POST and PUT with a 3 MB multipart body get 404 "404 Not Found" after the first chunk; the connection is closed', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const master = await createUser(t);
    await addProjectMember(t, p, master, 40);
    for (const [method, path] of [
      ['POST', `/api/v4/projects/${p.id}/pages/domains`],
      ['PUT', `/api/v4/projects/${p.id}/pages/domains/big.test`],
    ] as const) {
      const answer = await uploadStart(method, path, master.token);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([404, { message: '404 Not Found' }]);
      expect(answer.headers).toContain('connection: close');
      expect(answer.closedByServer).toBe(true);
      expect(answer.sent).toBeLessThan(BODY_BYTES / 100);
    }
  });

  it("keeps GitLab's order before the body: unknown project first, then the switch", async () => {
    const u = await createUser(t);
    const answer = await uploadStart('POST', '/api/v4/projects/424242/pages/domains', u.token);
    expect([answer.status, JSON.parse(answer.body)]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
