import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { createAppServer } from '../../src/core/runtime';

/**
 * core/runtime (express-prototypes): node builds each request and response with the app's prototypes, so
 * express's per-request `Object.setPrototypeOf` changes nothing (docs/operations.md#memory), and
 * express reads everything it reads as on a plain server.
 */
describe('createAppServer', () => {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.set('query parser', 'extended'); // an app setting, read through the request's prototype
  app.use(express.json());
  app.get('/echo', (req, res) => {
    res.locals.seen = true;
    res
      .status(203)
      .set('X-Echo', req.get('x-in') ?? '')
      .json({ query: req.query, ip: req.ip, protocol: req.protocol, path: req.path, locals: res.locals.seen });
  });
  app.post('/body', (req, res) => res.status(201).json({ body: req.body as unknown }));
  app.get('/redirect', (_req, res) => res.redirect(302, '/echo'));
  let server: http.Server;
  let base: string;
  let protoBefore: boolean[] = [];

  beforeAll(async () => {
    // What express finds before it changes anything: the app's own prototypes (a plain server: node's).
    server = createAppServer(app, (req, res) => {
      protoBefore.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
      app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    protoBefore = [];
  });

  it('hands express requests and responses that already have its prototypes', async () => {
    const res = await fetch(`${base}/echo?a=1&b[]=x&b[]=y`, {
      headers: { 'X-In': 'hello', 'X-Forwarded-For': '203.0.113.7', 'X-Forwarded-Proto': 'https' },
    });
    expect(res.status).toBe(203);
    expect(res.headers.get('x-echo')).toBe('hello');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      query: { a: '1', b: ['x', 'y'] },
      ip: '203.0.113.7',
      protocol: 'https',
      path: '/echo',
      locals: true,
    });
    expect(protoBefore).toEqual([true]);
  });

  it('reads bodies, redirects and answers unknown paths as express does', async () => {
    const posted = await fetch(`${base}/body`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ n: 1 }),
    });
    expect(posted.status).toBe(201);
    expect(await posted.json()).toEqual({ body: { n: 1 } });
    const moved = await fetch(`${base}/redirect`, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/echo');
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(protoBefore).toEqual([true, true, true]);
  });

  it('keeps node request and response behaviour (instanceof, keep-alive, HEAD)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (method: string) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        const req = http.request(`${base}/echo?k=v`, { agent, method }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get('GET');
    const head = await get('HEAD');
    const again = await get('GET');
    agent.destroy();
    expect(first.status).toBe(203);
    expect(JSON.parse(first.body)).toMatchObject({ query: { k: 'v' } });
    expect(head).toMatchObject({ status: 203, body: '' });
    expect(again.socket).toBe(first.socket);
    const probe = createAppServer(app, (req, res) => {
      res.end(JSON.stringify([req instanceof http.IncomingMessage, res instanceof http.ServerResponse]));
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(probe.address() as AddressInfo).port}/`);
    expect(await res.json()).toEqual([true, true]);
    await new Promise((resolve) => probe.close(resolve));
  });
});
