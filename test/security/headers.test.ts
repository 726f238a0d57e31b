import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { buildApp } from '../../src/app';
import { ConfigError, loadConfig } from '../../src/config';
import { linkBase, paginationHeaders } from '../../src/core/pagination/headers';
import { MODULES } from '../../src/modules';
import { createGroup } from '../support/factories';
import { EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, api, useTestApp } from '../support/test-app';

/** Links, proxy trust, security headers, request ids. */
const t = useTestApp({ reset: 'once' });

beforeAll(async () => {
  for (let i = 0; i < 3; i += 1) await createGroup(t, { path: `hdr-${i}`, visibility: 'public' });
});

describe('Link header', () => {
  it('is built from EXTERNAL_URL, whatever Host and X-Forwarded-* say', async () => {
    const res = await api(t)
      .get('/api/v4/groups?per_page=1')
      .set('Host', 'evil.example')
      .set('X-Forwarded-Proto', 'javascript')
      .set('X-Forwarded-Host', 'evil.example');
    expect(res.status).toBe(200);
    const links = (res.headers.link as string).split(', ');
    expect(links).toHaveLength(3);
    for (const l of links) expect(l.startsWith(`<${EXTERNAL_URL}/api/v4/groups?per_page=1&page=`)).toBe(true);
  });

  it('never copies private_token or access_token into a link (offset and keyset)', async () => {
    const offset = await api(t).get(
      `/api/v4/groups?per_page=1&private_token=${ROOT_TOKEN}&access_token=${ROOT_TOKEN}&search=hdr`,
    );
    expect(offset.status).toBe(200);
    expect(offset.headers.link).toContain('search=hdr');
    expect(offset.headers.link).not.toContain(ROOT_TOKEN);
    expect(offset.headers.link).not.toMatch(/private_token|access_token/);
    const keyset = await api(t).get(
      `/api/v4/groups?pagination=keyset&order_by=id&per_page=1&private_token=${ROOT_TOKEN}`,
    );
    expect(keyset.status).toBe(200);
    expect(keyset.headers.link).toMatch(
      new RegExp(`^<${EXTERNAL_URL}/api/v4/groups\\?pagination=keyset&order_by=id&per_page=1&cursor=`),
    );
    expect(keyset.headers.link).not.toContain(ROOT_TOKEN);
  });

  it('percent-encodes path characters that could end the URL or split the header', () => {
    expect(linkBase('https://gl.example', '/api/v4/groups/a>b, <c')).toBe(
      'https://gl.example/api/v4/groups/a%3Eb%2C%20%3Cc',
    );
    const h = paginationHeaders(
      { total: 2, page: 1, perPage: 1, totalPages: 2 },
      'https://gl.example/x',
      new URLSearchParams('job_token=s&a=1'),
    );
    expect(h.Link).toBe(
      '<https://gl.example/x?a=1&page=2&per_page=1>; rel="next", <https://gl.example/x?a=1&page=1&per_page=1>; rel="first", <https://gl.example/x?a=1&page=2&per_page=1>; rel="last"',
    );
  });
});

describe('TRUST_PROXY', () => {
  async function loggedIp(trustProxy: false | number | string | undefined): Promise<string> {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
    const { app, stop } = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'info' }, stream),
      externalUrl: EXTERNAL_URL,
      trustProxy,
      secrets: TEST_SECRETS,
      modules: MODULES,
    });
    await request(app).get('/-/health').set('X-Forwarded-For', '203.0.113.9');
    await stop();
    return lines.map((l) => JSON.parse(l) as { msg: string; ip: string }).find((l) => l.msg === 'request')!.ip;
  }

  it('ignores X-Forwarded-For unless configured', async () => {
    expect(await loggedIp(loadConfig({}).trustProxy)).toMatch(/127\.0\.0\.1$/);
    expect(await loggedIp(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy)).toBe('203.0.113.9');
  });

  it('parses TRUST_PROXY and refuses "true" and garbage', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toBe('loopback,10.0.0.0/8,::1');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'evil.example' })).toThrow(/TRUST_PROXY must be/);
    expect(() => loadConfig({ EXTERNAL_URL: 'javascript://x' })).toThrow(/EXTERNAL_URL must be/);
  });
});

describe('security headers', () => {
  const EXPECTED = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  };

  it('are on REST, GraphQL, error and ops responses', async () => {
    const responses = [
      await api(t).get('/api/v4/groups'),
      await api(t).get('/api/v4/nope'),
      await api(t).post('/api/v4/groups').set('Content-Type', 'application/json').send('{'),
      await api(t).graphql('{ groups { total } }'),
      await api(t).get('/-/health'),
    ];
    for (const res of responses) expect(res.headers).toMatchObject(EXPECTED);
  });

  it('give GraphiQL and Swagger UI their own policies (no inline script allowed by keyword)', async () => {
    const graphiql = await api(t).get('/-/graphiql');
    const csp = graphiql.headers['content-security-policy'] as string;
    expect(csp).toMatch(/^default-src 'none'; script-src ('sha256-[A-Za-z0-9+/=]{44}' ?)+; worker-src blob:; /);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(graphiql.headers['x-frame-options']).toBe('DENY');
    const swagger = await api(t).get('/api/v4/docs/');
    expect(swagger.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });
});

describe('X-Request-Id', () => {
  it('keeps a short safe client id and replaces anything else with a generated one', async () => {
    expect((await api(t).get('/-/health').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await api(t).get('/-/health').set('X-Request-Id', 'trace:01.HX_9')).headers['x-request-id']).toBe(
      'trace:01.HX_9',
    );
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const bad of ['a'.repeat(65), '<script>alert(1)</script>', 'id with spaces', '-leading-dash', '{"json":1}']) {
      const res = await api(t).get('/-/health').set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(uuid);
    }
    expect((await api(t).get('/-/health')).headers['x-request-id']).toMatch(uuid);
  });
});
