import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { extractToken } from '../../src/core/auth/token';
import { ctxFactory } from '../../src/core/context/request-ctx';
import { loaderFactory, routesOf } from '../../src/core/module/app-module';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { bodyErrorHandler } from '../../src/core/http/body-error-handler';
import { buildRestRouter } from '../../src/rest/router';
import { compileRoute } from '../../src/rest/route-document';
import { MODULES } from '../../src/modules';
import { authenticateToken } from '../../src/modules/tokens/authenticate';
import { createUser } from '../support/factories';
import { EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, api, useTestApp } from '../support/test-app';
import { uncachedSharedCache } from '../../src/core/db/shared-cache';

/** Bodies (JSON, form and multipart) are read per route, after authentication, within limits. */
const t = useTestApp();

/** Sends headers and the first part of a body, never the rest: resolves with the status if the server answers anyway. */
function answerBeforeBody(
  app: express.Express,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(app).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          req.destroy();
          server.close();
          server.closeAllConnections();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.write(
        `--B\r\nContent-Disposition: form-data; name="description"; filename="d.txt"\r\n\r\n${'x'.repeat(64 * 1024)}`,
      );
    });
  });
}

const multipartHeaders = (extra: Record<string, string> = {}) => ({
  'Content-Type': 'multipart/form-data; boundary=B',
  'Content-Length': String(1024 * 1024),
  ...extra,
});

/** An app whose only route is POST /groups declaring a `description` file parameter (no real route takes files yet). */
async function fileRouteApp(): Promise<express.Express> {
  const schema = await buildAppSchema(MODULES);
  const createGroup = routesOf(MODULES).find((r) => r.method === 'POST' && r.path === '/groups')!;
  const newCtx = ctxFactory(loaderFactory(MODULES));
  const logger = pino({ level: 'silent' });
  const createCtx = async (req: express.Request) => {
    const em = t.orm.em.fork();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const query = req.query as Record<string, unknown>;
    const auth = await authenticateToken(
      em,
      null,
      extractToken({ header: (n) => req.get(n), param: (n) => query[n] ?? body[n] }),
      new Date(),
    );
    return newCtx({
      em,
      user: auth.user,
      credential: auth.credential,
      tokenInvalid: auth.tokenInvalid,
      externalUrl: EXTERNAL_URL,
      secrets: TEST_SECRETS,
      cache: uncachedSharedCache(),
    });
  };
  const app = express();
  app.use(
    '/api/v4',
    buildRestRouter({
      schema,
      routes: [compileRoute(schema, { ...createGroup, files: ['description'] })],
      createCtx,
      logger,
      externalUrl: EXTERNAL_URL,
    }),
  );
  app.use(bodyErrorHandler((_err, _req, res) => void res.status(500).json({ message: '500 Internal Server Error' })));
  return app;
}

describe('multipart on routes without file parameters', () => {
  it('takes multipart fields and ignores a file part, as GitLab ignores undeclared parameters', async () => {
    const fields = await api(t, ROOT_TOKEN).post('/api/v4/groups').field('name', 'M').field('path', 'm-fields');
    expect(fields.status).toBe(201);
    const file = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .field('name', 'F')
      .field('path', 'f-file')
      .attach('description', Buffer.from('text'), 'd.txt');
    expect(file.status).toBe(201);
    expect(file.headers['content-type']).toBe('application/json');
    expect(file.body).toMatchObject({ path: 'f-file', description: '' });
  });

  it('answers a bad header token with 401 before reading the body', async () => {
    const res = await answerBeforeBody(t.app, '/api/v4/groups', multipartHeaders({ 'PRIVATE-TOKEN': 'not-a-token' }));
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ message: '401 Unauthorized' });
  });

  // POST /groups takes an avatar file (later GitLab): a route without file parameters is needed here.
  it('refuses a multipart body over the total size (413) or without Content-Length (411) before reading it', async () => {
    const big = await answerBeforeBody(t.app, '/api/v4/broadcast_messages', {
      ...multipartHeaders({ 'PRIVATE-TOKEN': ROOT_TOKEN }),
      'Content-Length': String(3 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toEqual({ error: 'The multipart body is larger than 2097152 bytes' });
    const chunked = await answerBeforeBody(t.app, '/api/v4/broadcast_messages', {
      'Content-Type': 'multipart/form-data; boundary=B',
      'Transfer-Encoding': 'chunked',
      'PRIVATE-TOKEN': ROOT_TOKEN,
    });
    expect(chunked.status).toBe(411);
  });

  it('limits the number of fields', async () => {
    let req = api(t, ROOT_TOKEN).post('/api/v4/groups');
    for (let i = 0; i < 1001; i += 1) req = req.field(`f${i}`, 'x');
    const res = await req;
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Multipart body refused: Too many fields' });
  });

  it('answers a truncated body and a missing boundary with 400 and a clear body', async () => {
    const truncated = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .set('Content-Type', 'multipart/form-data; boundary=B')
      .send('--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nTrunc');
    expect(truncated.status).toBe(400);
    expect(truncated.body).toEqual({ error: 'Malformed multipart body: Unexpected end of form' });
    const noBoundary = await api(t, ROOT_TOKEN)
      .post('/api/v4/groups')
      .set('Content-Type', 'multipart/form-data')
      .send('name=x');
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body).toEqual({ error: 'Malformed multipart body: Multipart: Boundary not found' });
  });
});

describe('a route that declares file parameters', () => {
  it('answers an anonymous upload with 401 before reading the body', async () => {
    const res = await answerBeforeBody(await fileRouteApp(), '/api/v4/groups', multipartHeaders());
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ message: '401 Unauthorized' });
  });

  it('delivers a declared file as its text to an authenticated caller', async () => {
    const u = await createUser(t);
    const res = await request(await fileRouteApp())
      .post('/api/v4/groups')
      .set('PRIVATE-TOKEN', u.token)
      .field('name', 'Up')
      .field('path', 'up')
      .attach('description', Buffer.from('-----BEGIN CERTIFICATE-----\nabc\n'), 'cert.pem');
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('-----BEGIN CERTIFICATE-----\nabc\n');
  });

  it('limits each file, the number of files and undeclared file fields', async () => {
    const app = await fileRouteApp();
    const post = () =>
      request(app).post('/api/v4/groups').set('PRIVATE-TOKEN', ROOT_TOKEN).field('name', 'L').field('path', 'l');
    const large = await post().attach('description', Buffer.alloc(1024 * 1024 + 1, 'a'), 'big.txt');
    expect(large.status).toBe(413);
    expect(large.body).toEqual({ error: 'Multipart body refused: File too large (description)' });
    const twice = await post()
      .attach('description', Buffer.from('a'), 'a.txt')
      .attach('description', Buffer.from('b'), 'b.txt');
    expect(twice.status).toBe(400);
    // An undeclared file part is ignored.
    const other = await post().attach('avatar', Buffer.from('a'), 'a.png');
    expect([other.status, other.body.path]).toEqual([201, 'l']);
  });
});

describe('one body error handler for both surfaces', () => {
  it('answers malformed and oversized JSON alike on /api/v4 and /graphql', async () => {
    for (const path of ['/api/v4/groups', '/graphql']) {
      const bad = await api(t, ROOT_TOKEN).post(path).set('Content-Type', 'application/json').send('{"name":');
      expect([bad.status, bad.body]).toEqual([400, { error: 'The request body is not valid JSON' }]);
      const big = await api(t, ROOT_TOKEN)
        .post(path)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
      expect([big.status, big.body]).toEqual([413, { error: 'The request body is too large' }]);
      expect(big.headers['content-type']).toBe('application/json');
    }
  });
});
