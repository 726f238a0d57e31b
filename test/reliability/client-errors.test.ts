import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/core/db/embedded/embedded-postgres';
import {
  DIST,
  buildDist,
  freshDatabase,
  getOnce,
  spawnNode,
  type LogLine,
  type RunningProcess,
} from './service-process';

// Requests Node's HTTP parser refuses before express sees them (the server's 'clientError' event,
// src/core/http/client-error-response.ts) still get a JSON error, as every other /api/v4 error does.
// Real `node dist/main.js` processes, raw sockets: no HTTP client would send these requests.
jest.setTimeout(120_000);

const MAIN = path.join(DIST, 'main.js');

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
  /** Everything the server sent before closing the connection. */
  raw: string;
}

/** Writes `request` as is on a new connection and reads until the server closes it. */
function exchange(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    const timer = setTimeout(
      () => socket.destroy(new Error(`no close within 10 s; got ${JSON.stringify(raw)}`)),
      10_000,
    );
    socket.on('connect', () => socket.write(request));
    socket.on('data', (c: Buffer) => (raw += c.toString('latin1')));
    socket.on('error', (e) => (clearTimeout(timer), reject(e)));
    socket.on('close', (hadError) => {
      clearTimeout(timer);
      if (hadError) return;
      const split = raw.indexOf('\r\n\r\n');
      const head = (split < 0 ? raw : raw.slice(0, split)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ statusLine: head[0], headers, body: split < 0 ? '' : raw.slice(split + 4), raw });
    });
  });
}

/** The whole answer: one status line, exactly these headers, one JSON body, then the connection closed. */
function expectJsonError(answer: RawAnswer, status: number, reason: string): void {
  const body = JSON.stringify({ error: `${status} ${reason}` });
  expect(answer.statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
  expect(answer.headers).toEqual({
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  });
  expect(JSON.parse(answer.body)).toEqual({ error: `${status} ${reason}` });
  expect(answer.body).toBe(body); // nothing after the body: a single response
}

const byMsg = (msg: string) => (l: LogLine) => l.msg === msg;

beforeAll(() => buildDist());

describe.each([
  [
    'the supervisor (WORKERS=2): workers answer',
    '2',
    (port: number) => `listening on http://127.0.0.1:${port} with 2 workers`,
  ],
  ['one process (WORKERS=0)', '0', (port: number) => `listening on http://127.0.0.1:${port}`],
])('malformed requests, %s', (_title, workers, listening) => {
  let svc: RunningProcess;
  let port: number;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshDatabase('client_errors');
    drop = db.drop;
    port = await freePort();
    svc = spawnNode(MAIN, { DATABASE_URL: db.url, PORT: String(port), WORKERS: workers });
    await svc.line('listening', byMsg(listening(port)), 60_000);
  });

  afterAll(async () => {
    if (svc && svc.child.exitCode === null) {
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
    await drop?.();
  });

  it('answers a URL over 16 KB with 431 and a JSON body, then closes the connection', async () => {
    const answer = await exchange(
      port,
      `GET /api/v4/groups?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    expectJsonError(answer, 431, 'Request Header Fields Too Large');
  });

  it('answers a header over 16 KB with 431 and a JSON body', async () => {
    const answer = await exchange(
      port,
      `GET /api/v4/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expectJsonError(answer, 431, 'Request Header Fields Too Large');
  });

  it('answers an unknown method with 400 and a JSON body', async () => {
    const answer = await exchange(port, 'FOO /api/v4/groups HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expectJsonError(answer, 400, 'Bad Request');
  });

  it('answers a request line that is not HTTP with 400 and a JSON body', async () => {
    expectJsonError(await exchange(port, 'hello there\r\n\r\n'), 400, 'Bad Request');
  });

  it('answers the bad request of a kept-alive connection after the good one, once', async () => {
    const answer = await exchange(
      port,
      'GET /-/liveness HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nFOO /api/v4/groups HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    const second = answer.raw.indexOf('HTTP/1.1 400 Bad Request\r\n');
    expect(second).toBeGreaterThan(0);
    const body = '{"error":"400 Bad Request"}';
    expect(answer.raw.slice(second)).toBe(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  it('keeps serving after malformed requests, with no process lost', async () => {
    const answers = await Promise.all([
      exchange(port, `GET /api/v4/groups?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
      exchange(port, 'FOO /api/v4/groups HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      exchange(port, 'hello there\r\n\r\n'),
    ]);
    expect(answers.map((a) => a.body)).toEqual([
      '{"error":"431 Request Header Fields Too Large"}',
      '{"error":"400 Bad Request"}',
      '{"error":"400 Bad Request"}',
    ]);
    for (let i = 0; i < 4; i += 1) {
      const r = await getOnce(port, '/api/v4/groups');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual([]);
    }
    expect(svc.child.exitCode).toBeNull();
    expect(svc.lines.filter((l) => l.level >= 50)).toEqual([]); // no error or fatal line: no worker died
    expect(svc.lines.filter(byMsg('worker started'))).toHaveLength(Number(workers)); // none replaced
  });
});
