import path from 'node:path';

/**
 * Runtime patch of @apollo/server (one of core/runtime's; docs/runtime-patches.md).
 *
 * Apollo Server builds, for every operation it hands a gateway executor, a request context whose
 * `response.http` is an object literal with its own `get status()` / `set status()` closures
 * (utils/makeGatewayGraphQLRequestContext.js). V8 gives each such object a map of its own that holds
 * those closures, so the closures, and through them the whole request (context, loaders, rows,
 * result), survive young-generation collections and are promoted. The replacement builds the same
 * fields with the accessors on a class (one map for all). Installed once, before the first request;
 * the service's gateway executor (core/graphql/jit-executor.ts) is the only reader of what it builds.
 */
interface HeaderMapLike {
  has(name: string): boolean;
  get(name: string): string | undefined;
  set(name: string, value: string): unknown;
  delete(name: string): unknown;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
}
interface NewRequestContext {
  request: {
    query?: string;
    operationName?: string;
    variables?: Record<string, unknown>;
    extensions?: Record<string, unknown>;
    http?: { method: string; search: string; headers: HeaderMapLike };
  };
  response: { http: { status?: number; headers: HeaderMapLike } };
  [key: string]: unknown;
}

/** Apollo's Fetch-style view of its HeaderMap (same methods as Apollo's own). */
class FetcherHeaders {
  constructor(private readonly map: HeaderMapLike) {}
  append(name: string, value: string): void {
    this.map.set(name, this.map.has(name) ? `${this.map.get(name)}, ${value}` : value);
  }
  delete(name: string): void {
    this.map.delete(name);
  }
  get(name: string): string | null {
    return this.map.get(name) ?? null;
  }
  has(name: string): boolean {
    return this.map.has(name);
  }
  set(name: string, value: string): void {
    this.map.set(name, value);
  }
  entries() {
    return this.map.entries();
  }
  keys() {
    return this.map.keys();
  }
  values() {
    return this.map.values();
  }
  [Symbol.iterator]() {
    return this.map.entries();
  }
}

/** `response.http` of the gateway request context: its `status` reads and writes the request's own. */
class GatewayResponseHttp {
  readonly headers: FetcherHeaders;
  constructor(private readonly rc: NewRequestContext) {
    this.headers = new FetcherHeaders(rc.response.http.headers);
  }
  get status(): number | undefined {
    return this.rc.response.http.status;
  }
  set status(status: number | undefined) {
    this.rc.response.http.status = status;
  }
}

type MakeContext = ((
  rc: NewRequestContext,
  server: { logger: unknown; cache: unknown },
  internals: { includeStacktraceInErrorResponses: boolean },
) => unknown) & { lean?: true };

/** Apollo's internal module, as its gateway code requires it. */
function apolloModule(): { makeGatewayGraphQLRequestContext: MakeContext } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(
    path.join(path.dirname(require.resolve('@apollo/server')), 'utils/makeGatewayGraphQLRequestContext.js'),
  ) as { makeGatewayGraphQLRequestContext: MakeContext };
}

/** The contract the patch relies on: the module and its function are where they were (a test checks it). */
export function apolloGatewayContextContract(): string | undefined {
  try {
    return typeof apolloModule().makeGatewayGraphQLRequestContext === 'function'
      ? undefined
      : 'makeGatewayGraphQLRequestContext is not a function';
  } catch (e) {
    return `@apollo/server utils/makeGatewayGraphQLRequestContext.js cannot be loaded: ${(e as Error).message}`;
  }
}

/** Replaces Apollo's builder, once (idempotent); throws when the contract no longer holds. */
export function installApolloGatewayContext(): void {
  const broken = apolloGatewayContextContract();
  if (broken) throw new Error(`@apollo/server changed: ${broken} (see core/runtime/apollo-gateway-context.ts)`);
  const mod = apolloModule();
  if (mod.makeGatewayGraphQLRequestContext.lean) return;
  const lean = (
    rc: NewRequestContext,
    server: { logger: unknown; cache: unknown },
    internals: { includeStacktraceInErrorResponses: boolean },
  ) => {
    const request: Record<string, unknown> = {};
    if ('query' in rc.request) request.query = rc.request.query;
    if ('operationName' in rc.request) request.operationName = rc.request.operationName;
    if ('variables' in rc.request) request.variables = rc.request.variables;
    if ('extensions' in rc.request) request.extensions = rc.request.extensions;
    const http = rc.request.http;
    if (http) {
      const needQuestion = http.search !== '' && !http.search.startsWith('?');
      request.http = {
        method: http.method,
        url: `https://unknown-url.invalid/${needQuestion ? '?' : ''}${http.search}`,
        headers: new FetcherHeaders(http.headers),
      };
    }
    return {
      request,
      response: { http: new GatewayResponseHttp(rc) },
      logger: server.logger,
      schema: rc.schema,
      schemaHash: 'schemaHash no longer exists since Apollo Server 4',
      context: rc.contextValue,
      cache: server.cache,
      queryHash: rc.queryHash,
      document: rc.document,
      source: rc.source,
      operationName: rc.operationName,
      operation: rc.operation,
      errors: rc.errors,
      metrics: rc.metrics,
      debug: internals.includeStacktraceInErrorResponses,
      overallCachePolicy: rc.overallCachePolicy,
      requestIsBatched: rc.requestIsBatched,
    };
  };
  mod.makeGatewayGraphQLRequestContext = Object.assign(lean, { lean: true as const });
}
