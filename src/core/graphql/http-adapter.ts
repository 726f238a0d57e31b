import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { runBatch } from './batch';
import { searchOf } from './url-search';

/**
 * POST/GET /graphql handed to Apollo Server (Apollo's "Building integrations" contract: an
 * HTTPGraphQLRequest in, an HTTPGraphQLResponse out), as @as-integrations/express5 does, minus what
 * that integration adds per request and nobody uses here: express's `res.send`, which
 * hashes every response body for an ETag (meaningless on a `no-store` POST answer), and a legacy
 * `url.parse` of the request URL for its query string (url-search.ts). With `batch`, a POST of a JSON
 * array runs as a batch of operations (batch.ts); GET never batches.
 */
export function apolloHandler<T extends BaseContext>(
  server: ApolloServer<T>,
  context: (req: Request, res: Response) => Promise<T>,
  batch?: { schema: GraphQLSchema },
) {
  server.assertStarted('apolloHandler()');
  return async (req: Request, res: Response): Promise<void> => {
    if (!('body' in req)) {
      res
        .status(500)
        .send(
          '`req.body` is not set; this probably means you forgot to set up the `json` middleware before the Apollo Server middleware.',
        );
      return;
    }
    const headers = new HeaderMap();
    for (const key in req.headers) {
      const value = req.headers[key];
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const run = (body: unknown) =>
      server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: searchOf(req.url), body },
        context: () => context(req, res),
      });
    const response =
      batch && req.method === 'POST' && Array.isArray(req.body)
        ? await runBatch(batch.schema, req.body, run)
        : await run(req.body);
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status || 200;
    if (response.body.kind === 'complete') {
      res.setHeader('Content-Length', Buffer.byteLength(response.body.string));
      res.end(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  };
}
