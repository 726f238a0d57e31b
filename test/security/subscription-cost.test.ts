import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { liveHarness, type LiveStream } from '../support/live';
import { waitFor } from '../reliability/fault-support';

/**
 * Live updates cost per event, not per subscriber: every audit notification is read once per instance
 * and handed to its subscribers in memory, and a subscriber the event cannot concern (its scope, its
 * filter, the user's rights) costs no statement. Here one user holds many idle auditEventAdded
 * subscriptions while she writes audit events of her own (secondary e-mail addresses, which only
 * administrators may read): the statements her writes cost do not grow with her subscriptions.
 */
const t = useTestApp();
const live = liveHarness();
afterEach(() => live.disposeClients());
afterAll(() => live.closeServers());

const EVENTS = 'subscription { auditEventAdded { entityType entityId details { add remove change to targetType } } }';

/** Statements this app sends (all of them, the subscriptions' included), counted as they go. */
let statements = 0;
beforeAll(() => {
  t.orm.em
    .getConnection()
    .getKnex()
    .on('query', () => (statements += 1));
});

/** Resolves once no statement has been sent for a while (the subscribers are done with the last event). */
async function quiet(): Promise<void> {
  let last = -1;
  let stable = 0;
  const limit = Date.now() + 20_000;
  while (stable < 3 && Date.now() < limit) {
    await new Promise((r) => setTimeout(r, 200));
    stable = statements === last ? stable + 1 : 0;
    last = statements;
  }
}

const emailEvents = (s: LiveStream) =>
  s.events.filter((e) => (e.auditEventAdded as { details: { targetType: string } }).details.targetType === 'Email')
    .length;

/**
 * Changes (`change(i)`, one at a time) until every stream has an event: subscriptions opened together
 * start listening over some hundreds of milliseconds, and miss the changes before.
 */
async function reachAll(streams: LiveStream[], change: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i += 1) {
    await change(i);
    try {
      return await waitFor('an event on every subscription', () => streams.every((s) => s.events.length > 0), 2000);
    } catch (e) {
      if (i >= 10) throw e;
    }
  }
}

/** `n` connections of `token`, each with `per` auditEventAdded subscriptions (graphql-ws, as Apollo's GraphQLWsLink). */
async function subscribeMany(url: string, token: string, n: number, per: number): Promise<LiveStream[]> {
  const clients = Array.from({ length: n }, () => live.connect(url, token));
  return Promise.all(clients.flatMap((c) => Array.from({ length: per }, () => live.subscribe(c, EVENTS))));
}

describe('Subscription.auditEventAdded with many idle subscriptions of one user', () => {
  it('costs the same statements per audit event with 1 or 100 of them open, and still delivers what she may read', async () => {
    const url = await live.serve(t.attach, t.app);
    const alice = await createUser(t, { username: 'alice' });
    const hers = await createGroup(t, { path: 'alices' });
    await addGroupMember(t, hers, alice, 50);
    const probe = await live.subscribe(live.connect(url, ROOT_TOKEN), EVENTS);
    let written = 0;
    /** `pairs` e-mail addresses added and removed by alice: two audit events each (entity User). */
    const writeEvents = async (pairs: number) => {
      for (let i = 0; i < pairs; i += 1) {
        const added = await api(t, alice.token)
          .post('/api/v4/user/emails')
          .send({ email: `alice-${written}@example.com` })
          .expect(201);
        await api(t, alice.token).delete(`/api/v4/user/emails/${added.body.id}`).expect(204);
        written += 2;
      }
      await waitFor('the administrator has every event', () => emailEvents(probe) >= written, 20_000);
      await quiet();
    };
    /** Statements per audit event alice's writes cost (her requests, the notification's reads, the deliveries). */
    const perEvent = async (pairs: number) => {
      await quiet();
      const before = statements;
      await writeEvents(pairs);
      return (statements - before) / (pairs * 2);
    };
    await writeEvents(1); // warm-up: her first requests of the day, the caches

    const ten = await subscribeMany(url, alice.token, 1, 10);
    const withTen = await perEvent(3);
    const hundred = [...ten, ...(await subscribeMany(url, alice.token, 9, 10))];
    // Her group's events reach each of her 100 subscriptions: they are all listening.
    await reachAll(hundred, (i) =>
      api(t, ROOT_TOKEN)
        .put(`/api/v4/groups/${hers.id}`)
        .send({ description: `ours ${i}` })
        .expect(200),
    );
    const withHundred = await perEvent(3);
    console.log(
      `statements per audit event, one user's idle auditEventAdded subscriptions open: 10 → ${withTen}, 100 → ${withHundred}`,
    );

    // The old cost was one SELECT per subscription per event (+90 here); allow a background statement or so.
    expect(withHundred - withTen).toBeLessThan(1);
    expect(hundred.flatMap((s) => s.errors)).toEqual([]);
    // Her e-mail events are not hers to read: every subscription has her group's events only.
    expect(
      hundred
        .flatMap((s) => s.events)
        .every((e) => (e.auditEventAdded as { entityId: number; entityType: string }).entityType === 'Group'),
    ).toBe(true);
    expect(emailEvents(probe)).toBe(written);
  });

  it('a readable event costs one check per user, not per subscription; a blocked user is still refused at once', async () => {
    const url = await live.serve(t.attach, t.app);
    const bob = await createUser(t, { username: 'bob' });
    const g = await createGroup(t, { path: 'bobs' });
    await addGroupMember(t, g, bob, 50);
    const first = await subscribeMany(url, bob.token, 1, 1);
    const sync = (streams: LiveStream[]) =>
      reachAll(streams, (i) =>
        api(t, ROOT_TOKEN)
          .put(`/api/v4/groups/${g.id}`)
          .send({ description: `sync ${i}` })
          .expect(200),
      );
    /** Statements one change of his group costs until all `streams` have it. */
    const change = async (description: string, streams: LiveStream[]) => {
      await quiet();
      const before = statements;
      await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ description }).expect(200);
      await waitFor(
        'delivered',
        () => streams.every((s) => s.events.some((e) => JSON.stringify(e).includes(description))),
        20_000,
      );
      await quiet();
      return statements - before;
    };
    await sync(first);
    const withOne = await change('measured with one', first);
    const all = [...first, ...(await subscribeMany(url, bob.token, 2, 10))];
    await sync(all);
    const withTwentyOne = await change('measured with twenty-one', all);
    console.log(`statements per readable audit event: 1 subscription → ${withOne}, 21 → ${withTwentyOne}`);
    expect(withTwentyOne - withOne).toBeLessThan(2);

    // Blocked: each subscription ends at its next event for him, and none receives it.
    await t.orm.em.getConnection().execute(`update users set state = 'blocked' where id = ?`, [bob.id]);
    await t.settled();
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ description: 'after the block' }).expect(200);
    await waitFor('every subscription ended', () => all.every((s) => s.errors.length > 0 || s.done), 20_000);
    for (const s of all) expect(JSON.stringify(s.errors)).toContain('UNAUTHENTICATED');
    expect(all.every((s) => !s.events.some((e) => JSON.stringify(e).includes('after the block')))).toBe(true);
  });
});
