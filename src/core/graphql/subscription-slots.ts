import type { HubSession, NotificationHub } from '../events/notification-hub';

/**
 * Open subscriptions per user, counted across every worker and instance on the database: each open
 * subscription holds one of the user's `limit` slots, a session advisory lock taken on the notification
 * hub's own connection (direct, never pooled). PostgreSQL is the shared state, and no table needs
 * cleaning: a worker that dies, or whose connection is lost, frees its slots with its session (its
 * subscriptions end then too). One statement to take a slot, one to give it back.
 *
 * The lock key is one bigint, `SLOT_SPACE << 41 | user << 10 | slot` (users are int4, slots < 1024),
 * apart from the two-int4 keys other code takes and above the start-up lock's.
 */
const SLOT_SPACE = 0x2b1;
export const MAX_SLOTS = 1024;

const TAKE = `select s from unnest($1::int[]) as s
  where pg_try_advisory_lock(($2::bigint << 41) | ($3::bigint << 10) | s) limit 1`;
const GIVE_BACK = 'select pg_advisory_unlock(($1::bigint << 41) | ($2::bigint << 10) | $3)';

/** What this worker's session holds: a session may take one advisory lock twice, so it never asks for its own slots. */
interface SessionSlots {
  held: Map<number, Set<number>>;
  /** Slot statements one after another, each reading `held` when it runs. */
  queue: Promise<unknown>;
}

const slotsOf = new WeakMap<object, SessionSlots>();

function serially<T>(state: SessionSlots, task: () => Promise<T>): Promise<T> {
  const run = state.queue.then(task, task);
  state.queue = run.catch(() => undefined);
  return run;
}

/** Resolves to the release of a slot of `userId`, or null when all `limit` are held (on any instance). */
export async function takeSubscriptionSlot(
  hub: NotificationHub,
  userId: number,
  limit: number,
): Promise<(() => void) | null> {
  const session: HubSession = await hub.hold();
  let state = slotsOf.get(session.connection);
  if (!state) {
    state = { held: new Map(), queue: Promise.resolve() };
    slotsOf.set(session.connection, state);
  }
  const mine = state;
  let slot: number | null;
  try {
    slot = await serially(mine, async () => {
      const held = mine.held.get(userId) ?? new Set<number>();
      const free = Array.from({ length: Math.min(limit, MAX_SLOTS) }, (_, i) => i).filter((i) => !held.has(i));
      if (free.length === 0) return null;
      const [row] = await session.query<{ s: number }>(TAKE, [free, SLOT_SPACE, userId]);
      if (!row) return null;
      mine.held.set(userId, held.add(row.s));
      return row.s;
    });
  } catch (e) {
    session.release();
    throw e;
  }
  if (slot === null) {
    session.release();
    return null;
  }
  const taken = slot;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    if (!session.alive()) return session.release(); // the lock went with the connection
    void serially(mine, async () => {
      await session.query(GIVE_BACK, [SLOT_SPACE, userId, taken]);
      const held = mine.held.get(userId);
      held?.delete(taken);
      if (held?.size === 0) mine.held.delete(userId);
    })
      .catch(() => undefined)
      .finally(() => session.release());
  };
}
