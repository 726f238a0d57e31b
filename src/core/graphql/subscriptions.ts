import type http from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import { handleProtocols } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from 'pino';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../context/request-ctx';
import { formatGraphQLError } from '../errors/graphql-error';
import { attachLive } from '../events/live';
import type { NotificationHub } from '../events/notification-hub';
import { DOCUMENT_LIMITS, documentLimitError } from './document-guard';
import { knownOperationTypeRule, queryLimitCheck } from './operation-rules';
import { createSubscribeRate } from './subscribe-rate';
import type { SubscriptionSettings } from './subscription-settings';
import { takeSubscriptionSlot } from './subscription-slots';
import { createAdmission } from './ws-admission';
import { startHeartbeat } from './ws-heartbeat';

/**
 * GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol of the `graphql-ws` client, as
 * Apollo Client's GraphQLWsLink speaks it) at the GraphQL paths; docs/graphql.md#subscriptions-live-updates.
 *
 * - Authentication: the `connection_init` payload's `PRIVATE-TOKEN` / `Authorization: Bearer …` (or the
 *   same headers on the upgrade request, for non-browser clients). A token that does not authenticate
 *   closes the socket (4403); anonymous connections may connect, but every subscription field requires
 *   a user (@Allow), and each event a subscription could deliver re-authenticates first (a revoked
 *   token ends the subscription; core/events/live.ts).
 * - Only subscription operations: queries and mutations go to POST /graphql (rate limits, one path).
 * - The same document limits as POST /graphql (size, aliases, depth, complexity), at most
 *   MAX_SUBSCRIPTIONS per connection, MAX_CONNECTIONS acknowledged connections per instance, 64 KiB per
 *   message, the `Origin` checked against CORS_ORIGINS when it is a list.
 * - Upgraded sockets not yet acknowledged are bounded apart (MAX_PENDING, and `pendingPerAddress` per
 *   client address: the next upgrade is refused with 429) and terminated when they sent nothing within
 *   INIT_TIMEOUT_MS (ws-admission.ts), so sockets that never initialise cannot keep clients out.
 * - At most `connectionsPerUser` acknowledged connections per user on this instance (anonymous ones per
 *   client address): the next `connection_init` is closed with 4429 and a reason saying so (graphql-ws
 *   clients do not retry 4429). A heartbeat (ws-heartbeat.ts, every `pingIntervalMs`) drops sockets
 *   that stopped answering, which also frees their share of that limit.
 * - Per user on all instances together: at most `subscriptionsPerUser` open subscriptions (a slot each,
 *   subscription-slots.ts) and `subscribesPerMinute` subscribe operations (subscribe-rate.ts); beyond,
 *   the subscribe answers an error with code TOO_MANY_REQUESTS and the connection stays.
 */
export const MAX_SUBSCRIPTIONS = 10;
export const MAX_CONNECTIONS = 1000;
/** Upgraded sockets awaiting their acknowledgement, all addresses together. */
export const MAX_PENDING = 1000;
/** Time to send `connection_init` (docs/graphql.md#subscriptions-live-updates). */
export const INIT_TIMEOUT_MS = 5000;
const MAX_PAYLOAD = 64 * 1024;

export interface SubscriptionServerOptions extends SubscriptionSettings {
  schema: GraphQLSchema;
  paths: string[];
  /** A RequestCtx for these headers (lower-case names) and client address; never throws for a bad token (ctx.tokenInvalid). */
  authenticate(headers: Record<string, string>, ip: string | undefined): Promise<RequestCtx>;
  hub: NotificationHub;
  allowedOrigin(origin: string | undefined): boolean;
  logger: Logger;
}

type Extra = Record<PropertyKey, unknown> & {
  headers?: Record<string, string>;
  ip?: string;
  /** The key this connection counts under in the per-user limit, once acknowledged. */
  holder?: string;
  /** The per-user slot each open subscription of this connection holds, by operation id (and its subscribe payload). */
  slots?: Map<string, { payload: object; release: () => void }>;
};

/** graphql-ws's "too many" close code (fatal for its client: no reconnection storm). */
export const TOO_MANY_CONNECTIONS = 4429;
/** The instance is full: WebSocket's "try again later" (graphql-ws clients retry it). */
const TRY_AGAIN_LATER = 1013;

const tooMany = (message: string, extensions: Record<string, unknown> = {}) => [
  new GraphQLError(message, { extensions: { code: 'TOO_MANY_REQUESTS', ...extensions } }),
];
/** The subscribe's bookkeeping did not reach the database: this operation fails, as a lost LISTEN does, not the connection. */
const unavailable = () => [
  new GraphQLError('the live updates connection to the database was lost; subscribe again', {
    extensions: { code: 'SERVICE_UNAVAILABLE' },
  }),
];
const failed = Symbol('failed');

const AUTH_HEADERS = ['private-token', 'authorization'];

function headersOf(params: Record<string, unknown> | undefined, request: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of AUTH_HEADERS) {
    const fromRequest = request.headers[name];
    if (typeof fromRequest === 'string') out[name] = fromRequest;
  }
  for (const [k, v] of Object.entries(params ?? {})) {
    const name = k.toLowerCase();
    if (AUTH_HEADERS.includes(name) && typeof v === 'string') out[name] = v;
  }
  return out;
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ message: `${status} ${text}` })}`,
  );
}

export function attachSubscriptions(server: http.Server, opts: SubscriptionServerOptions): { close(): Promise<void> } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD,
    handleProtocols: (protocols) => handleProtocols(protocols),
  });
  const heartbeat = startHeartbeat(wss.clients, opts.pingIntervalMs);
  const admission = createAdmission({
    connections: MAX_CONNECTIONS,
    pending: MAX_PENDING,
    pendingPerAddress: opts.pendingPerAddress,
    initTimeoutMs: INIT_TIMEOUT_MS,
  });
  /** Acknowledged connections per holder: `user:<id>`, or `ip:<address>` for anonymous ones. */
  const held = new Map<string, number>();
  /** An entity manager for the subscribe counters' statements (no user, no identity map used). */
  let counterEm: EntityManager | undefined;
  const rate = createSubscribeRate(
    async () => (counterEm ??= (await opts.authenticate({}, undefined)).em),
    opts.subscribesPerMinute,
  );
  const onFailure = (err: unknown): typeof failed => {
    opts.logger.warn(
      { err },
      'subscribe: the per-user limits could not be checked (database); the subscription is refused',
    );
    return failed;
  };
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (!opts.paths.includes(path)) return refuse(socket, 404, 'Not Found');
    if (!opts.allowedOrigin(req.headers.origin)) return refuse(socket, 403, 'Forbidden');
    const address = req.socket.remoteAddress;
    const refused = admission.refusal(address);
    if (refused) return refuse(socket, refused.status, refused.text);
    wss.handleUpgrade(req, socket, head, (ws) => {
      admission.track(ws, address);
      heartbeat.track(ws);
      wss.emit('connection', ws, req);
    });
  };
  /** Gives back the slot of operation `id` (of that subscribe message), or every slot of the connection. */
  const giveBack = (extra: Extra, id?: string, payload?: object) => {
    for (const [key, slot] of extra.slots ?? []) {
      if (id !== undefined && (key !== id || slot.payload !== payload)) continue;
      extra.slots?.delete(key);
      slot.release();
    }
  };
  server.on('upgrade', onUpgrade);

  const disposable = useServer<Record<string, unknown>, Extra>(
    {
      schema: opts.schema,
      connectionInitWaitTimeout: 0, // the admission's init deadline terminates silent sockets
      async onConnect(ctx) {
        const headers = headersOf(ctx.connectionParams, ctx.extra.request);
        const ip = ctx.extra.request.socket.remoteAddress;
        const rc = await opts.authenticate(headers, ip);
        if (rc.tokenInvalid) return false;
        // Closed while authenticating: not counted (its onClose has run or runs without a holder).
        if (ctx.extra.socket.readyState !== WebSocket.OPEN) return false;
        const holder = rc.user ? `user:${rc.user.id}` : `ip:${ip ?? 'unknown'}`;
        const open = held.get(holder) ?? 0;
        if (open >= opts.connectionsPerUser) {
          // graphql-ws then closes with 4403 too, which the socket, already closing, ignores.
          ctx.extra.socket.close(
            TOO_MANY_CONNECTIONS,
            rc.user ? 'Too many connections for this user' : 'Too many connections from this address',
          );
          return false;
        }
        if (!admission.acknowledge(ctx.extra.socket)) {
          ctx.extra.socket.close(TRY_AGAIN_LATER, 'Too many connections on this instance');
          return false;
        }
        held.set(holder, open + 1);
        ctx.extra.holder = holder;
        ctx.extra.headers = headers;
        ctx.extra.ip = ip;
        return true;
      },
      onComplete(ctx, id, payload) {
        giveBack(ctx.extra, id, payload);
      },
      onClose(ctx) {
        giveBack(ctx.extra);
        const holder = ctx.extra.holder;
        if (!holder) return;
        ctx.extra.holder = undefined;
        const open = (held.get(holder) ?? 1) - 1;
        if (open > 0) held.set(holder, open);
        else held.delete(holder);
      },
      async onSubscribe(ctx, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
        // This subscription is already registered in ctx.subscriptions when onSubscribe runs.
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS)
          return [new GraphQLError(`At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`)];
        // Counted before any other work, invalid documents included.
        const retryAfter = await rate.hit(ctx.extra.holder ?? 'unknown', Date.now()).then(undefined, onFailure);
        if (retryAfter === failed) return unavailable();
        if (retryAfter !== null)
          return tooMany(
            `Too many subscribe operations: at most ${opts.subscribesPerMinute} a minute; retry in ${retryAfter} s`,
            { retryAfter },
          );
        const source = typeof payload.query === 'string' ? payload.query : '';
        const tooLarge = documentLimitError(source);
        if (tooLarge) return [tooLarge];
        let document;
        try {
          document = parse(source, { maxTokens: DOCUMENT_LIMITS.maxTokens });
        } catch (e) {
          return [e instanceof GraphQLError ? e : new GraphQLError('Syntax error')];
        }
        const invalid = validate(opts.schema, document, [...specifiedRules, knownOperationTypeRule]);
        if (invalid.length) return invalid;
        const operation = getOperationAST(document, payload.operationName ?? undefined);
        if (!operation) return [new GraphQLError('Unknown or ambiguous operation')];
        if (operation.operation !== 'subscription')
          return [
            new GraphQLError(
              'Only subscriptions are served over WebSocket: send queries and mutations to POST /graphql',
            ),
          ];
        const variables = (payload.variables ?? {}) as Record<string, unknown>;
        const limit = queryLimitCheck(opts.schema, document, operation, variables);
        if (limit) return [limit];
        const headers = ctx.extra.headers ?? {};
        const ip = ctx.extra.ip;
        const contextValue = attachLive(await opts.authenticate(headers, ip), {
          hub: opts.hub,
          renew: () => opts.authenticate(headers, ip),
        });
        if (contextValue.user) {
          const release = await takeSubscriptionSlot(opts.hub, contextValue.user.id, opts.subscriptionsPerUser).then(
            undefined,
            onFailure,
          );
          if (release === failed) return unavailable();
          if (!release)
            return tooMany(`Too many subscriptions for this user: at most ${opts.subscriptionsPerUser} open at once`);
          // Closed or completed meanwhile: graphql-ws may not complete it, so the slot goes back now.
          if (ctx.extra.socket.readyState !== WebSocket.OPEN || !(id in ctx.subscriptions)) release();
          else {
            ctx.extra.slots?.get(id)?.release(); // an earlier operation of this id, still finishing
            (ctx.extra.slots ??= new Map()).set(id, { payload, release });
          }
        }
        return {
          schema: opts.schema,
          document,
          operationName: payload.operationName,
          variableValues: variables,
          contextValue,
        };
      },
      onNext(_ctx, _id, _payload, _args, result) {
        if (!result.errors?.length) return result;
        return {
          ...result,
          errors: result.errors.map((e) => formatGraphQLError(e.toJSON(), e)),
        } as unknown as typeof result;
      },
      onError(_ctx, _id, _payload, errors) {
        return errors.map((e) => formatGraphQLError(e.toJSON(), e)) as unknown as readonly GraphQLError[];
      },
    },
    wss,
    0,
  ); // no graphql-ws keep-alive: the heartbeat above pings (one timer for all sockets)

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      heartbeat.stop();
      for (const c of wss.clients) c.close(1001, 'Going away');
      await disposable.dispose();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}
