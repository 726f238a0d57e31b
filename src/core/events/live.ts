import type { RequestCtx } from '../context/request-ctx';
import { DomainError, ResubscribeError, UnauthenticatedError } from '../errors/domain-errors';
import type { NotificationHub } from './notification-hub';

/**
 * What a GraphQL subscription's context carries besides the RequestCtx of the connection: the
 * instance's notification hub and `renew`, which authenticates the connection's token again (a fresh
 * entity manager each time: a long-lived subscription never grows an identity map, and a token revoked
 * or a user blocked since the connection opened ends the subscription at its next event).
 */
export interface LiveSupport {
  hub: NotificationHub;
  renew(): Promise<RequestCtx>;
}

const LIVE = Symbol('live');

export function attachLive(ctx: RequestCtx, live: LiveSupport): RequestCtx {
  return Object.assign(ctx, { [LIVE]: live });
}

export function liveOf(ctx: RequestCtx): LiveSupport {
  const live = (ctx as RequestCtx & { [LIVE]?: LiveSupport })[LIVE];
  if (!live) throw new Error('subscriptions are served over WebSocket only');
  return live;
}

/** Events a slow subscriber may have waiting; beyond that its subscription ends with an error. */
export const MAX_QUEUED = 100;

/**
 * An async iterator of the items a channel's notifications name, as the subscriber may see them:
 * `load` turns a payload into items (once per notification per subscriber), `visible` decides per item
 * with a renewed context. Ends with the subscriber (`return`), with an error when the connection to the
 * database is lost, the token no longer authenticates, or the subscriber falls MAX_QUEUED items behind.
 * `local` adds payloads raised in this process (e.g. a per-instance timer), handled in the same order.
 * `accept` drops, before any database work (no re-authentication), payloads that cannot concern this
 * subscriber (ciJobStatusUpdated: another job's change), so a busy channel costs idle subscribers nothing.
 * Each item is resolved with the context that loaded it: `ctx` (the subscription's context, which
 * field resolvers receive) takes the renewed context's user, entity manager, loaders and memo before
 * the item is handed out, so nested fields never read a stale dataloader or memo.
 */
export async function liveIterator<T>(ctx: RequestCtx, channel: string, opts: {
  load: (ctx: RequestCtx, payload: string) => Promise<T[]>;
  visible: (ctx: RequestCtx, item: T) => Promise<boolean>;
  local?: (onPayload: (payload: string) => void) => () => void;
  accept?: (payload: string) => boolean;
}): Promise<AsyncIterableIterator<T>> {
  const live = liveOf(ctx);
  const queue: { item: T; fresh: RequestCtx }[] = [];
  let failure: Error | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  let chain = Promise.resolve();
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const fail = (e: Error) => {
    failure ??= e;
    signal();
  };
  const onPayload = (payload: string) => {
    if (opts.accept && !opts.accept(payload)) return;
    // In order: each notification is handled after the previous one.
    chain = chain.then(async () => {
      if (done || failure) return;
      const fresh = await live.renew();
      if (!fresh.user) throw new UnauthenticatedError();
      for (const item of await opts.load(fresh, payload)) {
        if (!(await opts.visible(fresh, item))) continue;
        if (queue.length >= MAX_QUEUED) throw new ResubscribeError(`subscriber more than ${MAX_QUEUED} events behind; subscribe again`);
        queue.push({ item, fresh });
      }
      signal();
    }).catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
  };
  // A connection lost while subscribing, or a closing hub, is a reason to subscribe again, as a loss later is.
  const unlisten = await live.hub.listen(channel, onPayload, (why) => fail(new ResubscribeError(why.message)))
    .catch((e: unknown) => {
      throw e instanceof DomainError ? e : new ResubscribeError(e instanceof Error ? e.message : String(e));
    });
  const unlistenLocal = opts.local?.(onPayload);
  const finish = () => {
    done = true;
    unlisten();
    unlistenLocal?.();
    signal();
  };
  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        const next = queue.shift();
        if (next) {
          Object.assign(ctx, { user: next.fresh.user, credential: next.fresh.credential, em: next.fresh.em, loaders: next.fresh.loaders, memo: next.fresh.memo });
          return { value: next.item, done: false };
        }
        if (failure) {
          finish();
          throw failure;
        }
        if (done) return { value: undefined, done: true };
        await new Promise<void>((r) => (wake = r));
      }
    },
    async return(): Promise<IteratorResult<T>> {
      finish();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
