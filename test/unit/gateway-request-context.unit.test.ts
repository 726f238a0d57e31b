import path from 'node:path';
import { buildSchema } from 'graphql';
import { HeaderMap } from '@apollo/server';
import { jitGateway } from '../../src/core/graphql/jit-executor';

/**
 * core/graphql/jit-executor.ts replaces Apollo's gateway request context builder with one whose
 * `response.http` keeps its accessors on a class (no per-request object map holding closures, which
 * kept every GraphQL request alive through young-generation collections). Same fields, same pass-through.
 */
describe('gateway request context', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(
    path.join(path.dirname(require.resolve('@apollo/server')), 'utils/makeGatewayGraphQLRequestContext.js'),
  ) as {
    makeGatewayGraphQLRequestContext: (rc: unknown, server: unknown, internals: unknown) => Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the context Apollo builds
  };

  it('is installed by the gateway and builds what Apollo built, status and headers passing through', () => {
    jitGateway(buildSchema('type Query { a: Int }'));
    const build = mod.makeGatewayGraphQLRequestContext;
    expect((build as unknown as { lean?: boolean }).lean).toBe(true);
    const requestHeaders = new HeaderMap([['x-a', '1']]);
    const responseHeaders = new HeaderMap();
    const rc = {
      request: {
        query: '{ a }',
        variables: { v: 1 },
        http: { method: 'POST', search: 'x=1', headers: requestHeaders },
      },
      response: { http: { status: undefined as number | undefined, headers: responseHeaders } },
      schema: 'S',
      contextValue: { who: 'ctx' },
      queryHash: 'h',
      document: 'D',
      source: '{ a }',
      operationName: null,
      operation: 'O',
      errors: undefined,
      metrics: {},
      overallCachePolicy: 'P',
      requestIsBatched: false,
    };
    const out = build(rc, { logger: 'L', cache: 'C' }, { includeStacktraceInErrorResponses: false });
    expect(out.request).toEqual({
      query: '{ a }',
      variables: { v: 1 },
      http: { method: 'POST', url: 'https://unknown-url.invalid/?x=1', headers: expect.anything() },
    });
    expect('operationName' in out.request).toBe(false);
    expect(out.request.http.headers.get('X-A')).toBe('1');
    expect(out.request.http.headers.get('x-b')).toBeNull();
    expect([
      out.context,
      out.queryHash,
      out.document,
      out.source,
      out.operation,
      out.logger,
      out.cache,
      out.debug,
      out.requestIsBatched,
    ]).toEqual([rc.contextValue, 'h', 'D', '{ a }', 'O', 'L', 'C', false, false]);
    out.response.http.status = 207;
    expect(rc.response.http.status).toBe(207);
    rc.response.http.status = 200;
    expect(out.response.http.status).toBe(200);
    out.response.http.headers.set('x-c', 'a');
    out.response.http.headers.append('x-c', 'b');
    expect(responseHeaders.get('x-c')).toBe('a, b');
    // One class for every request's response.http: no own accessors per object.
    const other = build(
      { ...rc, response: { http: { status: 1, headers: new HeaderMap() } } },
      { logger: 'L', cache: 'C' },
      { includeStacktraceInErrorResponses: true },
    );
    expect(Object.getPrototypeOf(other.response.http)).toBe(Object.getPrototypeOf(out.response.http));
    expect(Object.getOwnPropertyDescriptor(out.response.http, 'status')).toBeUndefined();
    expect(other.debug).toBe(true);
  });
});
