import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadConfig } from '../../src/config';
import { RUNTIME_PATCHES } from '../../src/core/runtime';

/**
 * Every change the service makes to, or use it makes of, a dependency's internals lives in
 * core/runtime with a contract (docs/runtime-patches.md). An upgrade that moves those internals fails
 * here, naming the patch, before it fails in production.
 */
describe('runtime patches (core/runtime)', () => {
  it.each(RUNTIME_PATCHES.map((p) => [p.name, p] as const))(
    '%s: the dependency still has what the patch relies on',
    (_name, patch) => {
      expect([patch.name, patch.contract()]).toEqual([patch.name, undefined]);
    },
  );

  it('lists every file of core/runtime that touches a dependency (a new patch goes through the door)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs = require('node:fs') as typeof import('node:fs');
    const files = fs
      .readdirSync(`${__dirname}/../../src/core/runtime`)
      .filter((f) => f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual(RUNTIME_PATCHES.map((p) => p.name).sort());
  });

  it('RUNTIME_PATCHES_OFF names only switchable patches: anything else stops the start with a configuration error', () => {
    expect(() => loadConfig({ RUNTIME_PATCHES_OFF: 'express-prototypes,apollo-gateway-context' })).not.toThrow();
    expect(() => loadConfig({ RUNTIME_PATCHES_OFF: 'express-prototype' })).toThrow(
      'RUNTIME_PATCHES_OFF may name graphql-jit-continuations, apollo-gateway-context, express-prototypes, type-graphql-extensions, graphql-suggestions; got "express-prototype"',
    );
    expect(() => loadConfig({ RUNTIME_PATCHES_OFF: 'node-server-handle' })).toThrow('got "node-server-handle"');
  });

  it('RUNTIME_PATCHES_OFF switches a patch off for the process, and the service code runs without it', async () => {
    const before = process.env.RUNTIME_PATCHES_OFF;
    process.env.RUNTIME_PATCHES_OFF = 'express-prototypes, apollo-gateway-context';
    try {
      let runtime: typeof import('../../src/core/runtime') | undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        runtime = require('../../src/core/runtime') as typeof import('../../src/core/runtime');
      });
      expect(runtime!.patchEnabled('express-prototypes')).toBe(false);
      expect(runtime!.patchEnabled('apollo-gateway-context')).toBe(false);
      expect(runtime!.patchEnabled('graphql-jit-continuations')).toBe(true);
      // Without the patch express sets its prototypes itself, per request, as it does by default.
      const app = express();
      app.get('/x', (req, res) => {
        res.json({
          proto: Object.getPrototypeOf(req) === (app as unknown as { request: object }).request,
          q: req.query.a,
        });
      });
      // What the request is built as before express sees it: node's own prototype when the patch is off.
      const builtAs: boolean[] = [];
      const server = runtime!.createAppServer(app, (req, res) => {
        builtAs.push(Object.getPrototypeOf(req) === http.IncomingMessage.prototype);
        app(req, res);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const body = await new Promise<string>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: '/x?a=1', agent: false }, (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () => resolve(text));
            })
            .on('error', reject);
        });
        expect(JSON.parse(body)).toEqual({ proto: true, q: '1' });
        expect(builtAs).toEqual([true]);
      } finally {
        server.close();
      }
    } finally {
      if (before === undefined) delete process.env.RUNTIME_PATCHES_OFF;
      else process.env.RUNTIME_PATCHES_OFF = before;
    }
  });
});
