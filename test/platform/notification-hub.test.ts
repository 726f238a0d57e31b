import { createNotificationHub } from '../../src/core/events/notification-hub';
import { takeSubscriptionSlot } from '../../src/core/graphql/subscription-slots';
import { useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';
import { backendsNamed, freezeBackend, namedConnection } from '../support/pg-backends';

/**
 * core/events/notification-hub: the one LISTEN connection behind GraphQL subscriptions. Subscribers come
 * and go (a dashboard reloads, a filter changes): the connection must not leak, hand a notification over
 * twice, or tell the new subscribers that an old connection ended.
 */
const t = useTestApp({ reset: 'once' });

const hubWith = (name: string, opts = {}) => createNotificationHub(namedConnection(t, name), opts);
const backends = (name: string) => backendsNamed(t, name);
const notify = (channel: string, payload: string) =>
  t.orm.em.getConnection().execute(`select pg_notify('${channel}', ?)`, [payload]);

describe('notification hub', () => {
  it('subscribers leaving and arriving at once: no false loss, each notification once, no connection left behind', async () => {
    const name = `hub-churn-${process.pid}`;
    const hub = hubWith(name);
    const lost: Error[] = [];
    try {
      // The last subscriber leaves and the next arrives before the old connection has closed, ten times.
      for (let i = 0; i < 10; i += 1) {
        const unlisten = await hub.listen(
          'hub_churn',
          () => undefined,
          (e) => lost.push(e),
        );
        unlisten();
      }
      const got: string[] = [];
      const unlisten = await hub.listen(
        'hub_churn',
        (p) => got.push(p),
        (e) => lost.push(e),
      );
      await waitFor('the old connections closed', async () => (await backends(name)).length === 1, 5000);
      await notify('hub_churn', 'one');
      await waitFor('the notification', () => got.length >= 1, 5000);
      await new Promise((r) => setTimeout(r, 200));
      expect(got).toEqual(['one']);
      expect(lost).toEqual([]);
      unlisten();
      await waitFor('no connection once nobody listens', async () => (await backends(name)).length === 0, 5000);
    } finally {
      await hub.close();
    }
  });

  it('two subscribers of one channel arriving together both hear a notification sent once both are listening', async () => {
    const hub = hubWith(`hub-pair-${process.pid}`);
    try {
      const a: string[] = [];
      const b: string[] = [];
      const [ua, ub] = await Promise.all([
        hub.listen(
          'hub_pair',
          (p) => a.push(p),
          () => undefined,
        ),
        hub.listen(
          'hub_pair',
          (p) => b.push(p),
          () => undefined,
        ),
      ]);
      await notify('hub_pair', 'x');
      await waitFor('both', () => a.length === 1 && b.length === 1, 5000);
      ua();
      ub();
    } finally {
      await hub.close();
    }
  });

  it('a connection that stops answering (its server process frozen, the socket open) is declared lost; a new subscriber gets a new one', async () => {
    const name = `hub-silent-${process.pid}`;
    const hub = hubWith(name, { heartbeatMs: 200, heartbeatTimeoutMs: 400 });
    let thaw: (() => Promise<void>) | undefined;
    try {
      const lost: Error[] = [];
      await hub.listen(
        'hub_silent',
        () => undefined,
        (e) => lost.push(e),
      );
      thaw = freezeBackend(t, (await backends(name))[0]);
      await waitFor('the subscriber told', () => lost.length === 1, 5000);
      expect(lost[0].message).toBe('the live updates connection to the database was lost; subscribe again');
      const got: string[] = [];
      const unlisten = await hub.listen(
        'hub_silent',
        (p) => got.push(p),
        () => undefined,
      );
      await notify('hub_silent', 'again');
      await waitFor('heard on the new connection', () => got.length === 1, 5000);
      unlisten();
    } finally {
      await thaw?.();
      await hub.close();
    }
  });

  it('closes within a second or so even when its connection stopped answering, and tells its subscribers why', async () => {
    const name = `hub-close-${process.pid}`;
    const hub = hubWith(name);
    const lost: Error[] = [];
    await hub.listen(
      'hub_close',
      () => undefined,
      (e) => lost.push(e),
    );
    const thaw = freezeBackend(t, (await backends(name))[0]);
    try {
      const started = Date.now();
      await hub.close();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(lost.map((e) => e.message)).toEqual([
        'the live updates stopped (the service is shutting down); subscribe again',
      ]);
      await expect(
        hub.listen(
          'hub_close',
          () => undefined,
          () => undefined,
        ),
      ).rejects.toThrow('notification hub closed');
    } finally {
      await thaw();
    }
  });

  it('subscription slots are shared by every hub on the database, and end with the session that holds them', async () => {
    const [a, b] = [hubWith(`hub-slots-a-${process.pid}`), hubWith(`hub-slots-b-${process.pid}`)];
    const user = 2_000_000 + (process.pid % 100_000); // no user of the test data
    try {
      const mine = [await takeSubscriptionSlot(a, user, 3), await takeSubscriptionSlot(a, user, 3)];
      const theirs = await takeSubscriptionSlot(b, user, 3);
      expect([...mine, theirs].every((r) => typeof r === 'function')).toBe(true);
      // Three held (two here, one there): neither hub gets a fourth; another user is counted apart.
      expect(await takeSubscriptionSlot(a, user, 3)).toBeNull();
      expect(await takeSubscriptionSlot(b, user, 3)).toBeNull();
      const other = await takeSubscriptionSlot(b, user + 1, 3);
      expect(other).not.toBeNull();
      other?.();
      // Given back on one hub: the other may take it.
      mine[0]?.();
      await waitFor(
        'the slot given back',
        async () => {
          const got = await takeSubscriptionSlot(b, user, 3);
          got?.(); // not kept: only whether one was free
          return got !== null;
        },
        5000,
      );
      // A hub's connection ends: its slots go with its session.
      const [pid] = await backends(`hub-slots-a-${process.pid}`);
      await t.orm.em.getConnection().execute('select pg_terminate_backend(?)', [pid]);
      const taken = await (async () => {
        const got: (() => void)[] = [];
        await waitFor(
          'her slots on hub a freed',
          async () => {
            const r = await takeSubscriptionSlot(b, user, 3);
            if (r) got.push(r);
            return got.length === 2;
          },
          5000,
        );
        return got;
      })();
      expect(taken).toHaveLength(2);
      expect(await takeSubscriptionSlot(b, user, 3)).toBeNull();
      mine[1]?.(); // a release after the loss: nothing to give back, nothing thrown
      for (const r of [...taken, theirs]) r?.();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
