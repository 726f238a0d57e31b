import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { pgTime } from '../../core/db/pg-time';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { liveOf } from '../../core/events/live';
import type { NotificationHub } from '../../core/events/notification-hub';

/**
 * When broadcast messages become active or inactive because time passed (docs/graphql.md#subscriptions-live-updates): one
 * timer per instance, running while this instance has broadcastMessagesChanged subscribers. It asks for
 * the next boundary after the last tick (one query: the next starts_at, or the instant after the next
 * ends_at, as `active` includes both ends), sleeps until then and hands its subscribers the window
 * `tick:<from ms>:<to ms>` that just passed; each subscriber loads the messages whose boundaries lie in
 * it. Every audit notification (any write, on any instance) plans again, so a message created or moved
 * meanwhile is scheduled. Each instance runs its own timer for its own subscribers: nothing is sent
 * between instances.
 */
type OnTick = (payload: string) => void;

interface State {
  subscribers: Set<OnTick>;
  em: EntityManager;
  clock: Clock;
  /** The end of the last window handed out. */
  since: Date;
  timer?: NodeJS.Timeout;
  unlisten?: Promise<(() => void) | undefined>;
  planning: boolean;
  again: boolean;
}

const TICK = /^tick:(\d+):(\d+)$/;
/** setTimeout's largest delay; a later boundary is reached in several sleeps. */
const MAX_DELAY = 2 ** 31 - 1;
/** After a failed planning query (database unreachable), try again after this long. */
const RETRY_MS = 5000;

const clocks = new WeakMap<NotificationHub, State>();

/** The time window a tick payload names, or null for another payload (an audit notification). */
export function tickWindow(payload: string): { from: Date; to: Date } | null {
  const m = TICK.exec(payload);
  return m ? { from: new Date(Number(m[1])), to: new Date(Number(m[2])) } : null;
}

function arm(s: State, next: Date | null): void {
  if (s.timer) clearTimeout(s.timer);
  s.timer = undefined;
  if (!next || s.subscribers.size === 0) return;
  const delay = Math.min(Math.max(next.getTime() - s.clock.now().getTime(), 0), MAX_DELAY);
  s.timer = setTimeout(() => fire(s, next), delay);
  s.timer.unref();
}

function fire(s: State, due: Date): void {
  s.timer = undefined;
  if (s.subscribers.size === 0) return;
  const now = s.clock.now();
  if (now.getTime() < due.getTime()) return arm(s, due); // woke early, or a long sleep in parts
  const payload = `tick:${s.since.getTime()}:${now.getTime()}`;
  s.since = now;
  for (const onTick of s.subscribers) onTick(payload);
  void plan(s);
}

async function plan(s: State): Promise<void> {
  if (s.planning) {
    s.again = true;
    return;
  }
  s.planning = true;
  try {
    do {
      s.again = false;
      const [row] = await sqlRows<{ next: string | Date | null }>(
        s.em,
        `select least(min(starts_at) filter (where starts_at > ?),
                      min(ends_at + interval '1 millisecond') filter (where ends_at + interval '1 millisecond' > ?)) as next
           from broadcast_messages`,
        [s.since, s.since],
      );
      arm(s, row?.next ? pgTime(row.next) : null);
    } while (s.again && s.subscribers.size > 0);
  } catch {
    arm(s, new Date(s.clock.now().getTime() + RETRY_MS));
  } finally {
    s.planning = false;
  }
}

/** Calls `onTick` with each window in which some message's boundary may have passed; returns the unsubscribe. */
export function onBroadcastBoundary(ctx: RequestCtx, onTick: OnTick): () => void {
  const hub = liveOf(ctx).hub;
  let s = clocks.get(hub);
  if (!s) {
    s = { subscribers: new Set(), em: ctx.em, clock: ctx.clock, since: ctx.clock.now(), planning: false, again: false };
    clocks.set(hub, s);
  }
  const state = s;
  state.subscribers.add(onTick);
  state.em = ctx.em;
  if (!state.unlisten) {
    state.since = state.clock.now();
    // Any committed write may have created or moved a message: plan again (one query per notification).
    const listening = hub
      .listen(
        AUDIT_CHANNEL,
        () => void plan(state),
        () => (state.unlisten = undefined),
      )
      .catch(() => {
        if (state.unlisten === listening) state.unlisten = undefined; // the next subscriber tries again
        return undefined;
      });
    state.unlisten = listening;
    void plan(state);
  }
  return () => {
    state.subscribers.delete(onTick);
    if (state.subscribers.size > 0) return;
    arm(state, null);
    const unlisten = state.unlisten;
    state.unlisten = undefined;
    void unlisten?.then((u) => u?.());
  };
}
