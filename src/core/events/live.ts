import type { CurrentUser, RequestCtx } from '../context/request-ctx';
import { DomainError, ResubscribeError, UnauthenticatedError } from '../errors/domain-errors';
import type { NotificationHub } from './notification-hub';
import { bindNotification, NotificationMemo } from './notification-memo';

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
 * How long a subscriber that `select` keeps skipping goes without authenticating again: its token
 * revoked, its user blocked or promoted is noticed at its next notification after this, at the latest.
 */
export const RECHECK_MS = 60_000;

/** How a subscription turns its channel's notifications into items (see liveIterator). */
export type LiveSource<T> =
  | { load: (ctx: RequestCtx, payload: string) => Promise<T[]>; select?: undefined }
  | { select: (payload: string, memo: NotificationMemo, viewer: CurrentUser) => Promise<T[]>; load?: undefined };

/**
 * An async iterator of the items a channel's notifications name, as the subscriber may see them.
 * Ends with the subscriber (`return`), with an error when the connection to the database is lost, the
 * token no longer authenticates, or the subscriber falls MAX_QUEUED items behind.
 *
 * Per notification: `accept` drops, before anything else, payloads that cannot concern this subscriber
 * (ciJobStatusUpdated: another job's change). Then either
 * - `select` (the cheap path): the candidate items from reads shared by every subscriber of the instance
 *   (`memo`: one statement per notification, not per subscriber) and `viewer`, the user as last
 *   authenticated; with no candidate the notification costs this subscriber nothing more (no
 *   re-authentication, no statement), except once per RECHECK_MS. Candidates are re-authenticated and
 *   checked with `visible` before delivery, so a revoked token or blocked user receives nothing more;
 * - or `load`, with the re-authenticated context (once per notification per subscriber); its entity
 *   manager carries the notification's memo, so shared reads inside it (`auditRows`) run once.
 * `visible` decides per item with the renewed context; `memo` lets it share a decision between the
 * subscriptions of one user. `local` adds payloads raised in this process (e.g. a per-instance timer),
 * handled in the same order.
 * Each item is resolved with the context that loaded it: `ctx` (the subscription's context, which
 * field resolvers receive) takes the renewed context's user, entity manager, loaders and memo before
 * the item is handed out, so nested fields never read a stale dataloader or memo.
 */
export async function liveIterator<T>(
  ctx: RequestCtx,
  channel: string,
  opts: LiveSource<T> & {
    visible: (ctx: RequestCtx, item: T, memo: NotificationMemo) => Promise<boolean>;
    local?: (onPayload: (payload: string) => void) => () => void;
    accept?: (payload: string) => boolean;
  },
): Promise<AsyncIterableIterator<T>> {
  const live = liveOf(ctx);
  const queue: { item: T; fresh: RequestCtx }[] = [];
  let failure: Error | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  let chain = Promise.resolve();
  if (!ctx.user) throw new UnauthenticatedError();
  let viewer: CurrentUser = ctx.user;
  let checkedAt = Date.now();
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const fail = (e: Error) => {
    failure ??= e;
    signal();
  };
  const handle = async (payload: string, memo: NotificationMemo) => {
    let items = opts.select ? await opts.select(payload, memo, viewer) : undefined;
    if (items?.length === 0 && Date.now() - checkedAt < RECHECK_MS) return;
    const fresh = await live.renew();
    checkedAt = Date.now();
    if (!fresh.user) throw new UnauthenticatedError();
    bindNotification(fresh.em, memo);
    // Promoted or demoted since the last look: select again with what the user is now.
    if (opts.select && fresh.user.admin !== viewer.admin) items = await opts.select(payload, memo, fresh.user);
    viewer = fresh.user;
    for (const item of items ?? (opts.load ? await opts.load(fresh, payload) : [])) {
      if (!(await opts.visible(fresh, item, memo))) continue;
      if (queue.length >= MAX_QUEUED)
        throw new ResubscribeError(`subscriber more than ${MAX_QUEUED} events behind; subscribe again`);
      queue.push({ item, fresh });
    }
    signal();
  };
  const onPayload = (payload: string, memo?: NotificationMemo) => {
    if (opts.accept && !opts.accept(payload)) return;
    // In order: each notification is handled after the previous one.
    chain = chain
      .then(() => (done || failure ? undefined : handle(payload, memo ?? new NotificationMemo(payload))))
      .catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
  };
  // A connection lost while subscribing, or a closing hub, is a reason to subscribe again, as a loss later is.
  const unlisten = await live.hub
    .listen(channel, onPayload, (why) => fail(new ResubscribeError(why.message)))
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
          Object.assign(ctx, {
            user: next.fresh.user,
            credential: next.fresh.credential,
            em: next.fresh.em,
            loaders: next.fresh.loaders,
            memo: next.fresh.memo,
          });
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
