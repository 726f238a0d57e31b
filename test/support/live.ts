import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Express } from 'express';
import { createAppServer } from '../../src/core/runtime';

/** A GraphQL subscription client over real sockets (graphql-ws, as Apollo Client's GraphQLWsLink). */
export interface LiveStream {
  events: Record<string, unknown>[];
  /** Date.now() when each event arrived (latency measurements). */
  at: number[];
  errors: unknown[];
  done: boolean;
  stop(): void;
}

/** Servers and clients of one test file; `afterEach(live.disposeClients)`, `afterAll(live.closeServers)`. */
export function liveHarness() {
  const servers: http.Server[] = [];
  const clients: Client[] = [];
  return {
    /** Listens on a loopback port with subscriptions attached; the WebSocket URL of /graphql. */
    async serve(attach: (s: http.Server) => void, app: Express): Promise<string> {
      const server = createAppServer(app);
      attach(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      servers.push(server);
      return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    },
    connect(url: string, token?: string): Client {
      const client = createClient({
        url,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: true,
        connectionParams: token ? { 'PRIVATE-TOKEN': token } : {},
      });
      clients.push(client);
      return client;
    },
    /** Subscribes and resolves once the server has the subscription running (a first commit is then seen). */
    async subscribe(client: Client, query: string, variables?: Record<string, unknown>): Promise<LiveStream> {
      const s: LiveStream = { events: [], at: [], errors: [], done: false, stop: () => undefined };
      s.stop = client.subscribe(
        { query, variables },
        {
          next: (r) =>
            r.errors
              ? s.errors.push(...r.errors)
              : (s.events.push(r.data as Record<string, unknown>), s.at.push(Date.now())),
          error: (e) => s.errors.push(e),
          complete: () => (s.done = true),
        },
      );
      // The LISTEN is up once the server answered the subscribe; a short settle is enough on loopback.
      await new Promise((r) => setTimeout(r, 300));
      return s;
    },
    async disposeClients(): Promise<void> {
      for (const c of clients.splice(0)) await c.dispose();
    },
    async closeServers(): Promise<void> {
      for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}
