import request from 'supertest';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { ConfigError, loadConfig } from '../../src/config';
import { MODULES } from '../../src/modules';
import { ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { createGroup } from '../support/factories';

/** A dashboard on another origin can call both surfaces, as GitLab's API allows. */
const t = useTestApp();
const ORIGIN = 'https://dashboard.example.com';

describe('CORS, any origin (the default, as GitLab)', () => {
  it.each(['/graphql', '/api/graphql', '/api/v4/groups', '/api/v4/projects/1/pages/domains'])(
    'answers the preflight of %s with 204 before authentication',
    async (path) => {
      const res = await request(t.app)
        .options(path)
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type, private-token, authorization');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toBe('content-type, private-token, authorization');
      expect(res.headers['access-control-max-age']).toBe('7200');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  it('exposes the pagination headers on REST answers, and never allows credentials', async () => {
    await createGroup(t, { path: 'g1', visibility: 'public' });
    const res = await request(t.app).get('/api/v4/groups').set('Origin', ORIGIN);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers'].split(', ')).toEqual(
      expect.arrayContaining([
        'Link',
        'X-Total',
        'X-Total-Pages',
        'X-Per-Page',
        'X-Page',
        'X-Next-Page',
        'X-Prev-Page',
        'Retry-After',
      ]),
    );
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it("serves GraphQL cross-origin at /graphql and at GitLab's /api/graphql", async () => {
    for (const path of ['/graphql', '/api/graphql']) {
      const res = await request(t.app)
        .post(path)
        .set('Origin', ORIGIN)
        .set('Authorization', `Bearer ${ROOT_TOKEN}`)
        .send({ query: '{ currentUser { username } }' });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body).toEqual({ data: { currentUser: { username: 'root' } } });
    }
  });

  it('adds nothing to same-origin requests and to paths outside the API', async () => {
    expect((await request(t.app).get('/api/v4/groups')).headers['access-control-allow-origin']).toBeUndefined();
    const other = await request(t.app)
      .options('/-/graphiql')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS restricts the origins', () => {
  it('echoes a listed origin (Vary: Origin) and gives others no CORS headers', async () => {
    const { app, stop } = await buildApp({
      orm: t.orm,
      logger: pino({ level: 'silent' }),
      externalUrl: 'http://gitlab.test',
      secrets: TEST_SECRETS,
      modules: MODULES,
      corsOrigins: [ORIGIN],
    });
    try {
      const ok = await request(app)
        .options('/graphql')
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', 'POST');
      expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([204, ORIGIN]);
      expect(ok.headers.vary).toContain('Origin');
      const refused = await request(app)
        .options('/graphql')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect([
        refused.status,
        refused.headers['access-control-allow-origin'],
        refused.headers['access-control-allow-methods'],
      ]).toEqual([204, undefined, undefined]);
      const get = await request(app).get('/api/v4/groups').set('Origin', 'https://evil.example');
      expect([get.status, get.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    } finally {
      await stop();
    }
  });

  it('is validated at start', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080' }).corsOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'a.example' })).toThrow(
      'CORS_ORIGINS entries must be origins such as https://dashboard.example.com (scheme, host, optional port; no path), got "a.example"',
    );
  });
});
