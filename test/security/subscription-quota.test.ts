import pino from 'pino';
import { buildApp } from '../../src/app';
import { MODULES } from '../../src/modules';
import { api, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';
import { addGroupMember, createGroup, createUser } from '../support/factories';
import { liveHarness, type LiveStream } from '../support/live';
import { waitFor } from '../reliability/fault-support';

/**
 * What one user may hold and ask of the WebSocket endpoint, on all instances together: at most
 * SUBSCRIPTION_MAX_PER_USER open subscriptions and SUBSCRIPTION_RATE_PER_MINUTE subscribe operations
 * a minute; beyond, the subscribe answers an error (code TOO_MANY_REQUESTS) and the connection stays.
 */
const t = useTestApp({ reset: 'once' });
const live = liveHarness();
const stops: (() => Promise<void>)[] = [];
afterEach(() => live.disposeClients());
afterAll(async () => {
  await live.closeServers();
  for (const stop of stops.splice(0)) await stop();
});

const EVENTS = 'subscription { auditEventAdded { entityId details { change to } } }';

/** Another service instance on the test database (its own notification hub and session) with these settings. */
async function instance(env: Record<string, string>): Promise<string> {
  const built = await buildApp({
    orm: t.orm,
    logger: pino({ level: 'silent' }),
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    modules: MODULES,
    env,
    background: false,
  });
  stops.push(built.stop);
  return live.serve(built.attach, built.app);
}

/** The GraphQL errors a refused subscribe answered (graphql-ws hands them to `error` as one array). */
const refusal = (s: LiveStream) =>
  Array.isArray(s.errors[0])
    ? (s.errors[0] as { message: string; extensions?: { code?: string; retryAfter?: number } }[])[0]
    : undefined;

describe('open subscriptions per user', () => {
  it('refuses the one past SUBSCRIPTION_MAX_PER_USER whichever instance it reaches, and admits again once one ends', async () => {
    const env = { SUBSCRIPTION_MAX_PER_USER: '3' };
    const [a, b] = [await instance(env), await instance(env)];
    const alice = await createUser(t, { username: 'capped-alice' });
    const g = await createGroup(t, { path: 'capped' });
    await addGroupMember(t, g, alice, 50);
    const onA = live.connect(a, alice.token);
    const onB = live.connect(b, alice.token);
    const held = [
      await live.subscribe(onA, EVENTS),
      await live.subscribe(onA, EVENTS),
      await live.subscribe(onB, EVENTS),
    ];

    const overB = await live.subscribe(onB, EVENTS);
    const overA = await live.subscribe(live.connect(a, alice.token), EVENTS);
    await waitFor('both refused', () => overA.errors.length > 0 && overB.errors.length > 0, 5000);
    for (const over of [overA, overB]) {
      expect(refusal(over)).toMatchObject({
        message: 'Too many subscriptions for this user: at most 3 open at once',
        extensions: { code: 'TOO_MANY_REQUESTS' },
      });
    }
    // The three she holds go on, on both instances; her connections stay open.
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${g.id}`).send({ description: 'still hers' }).expect(200);
    await waitFor('her three subscriptions have the event', () => held.every((s) => s.events.length === 1), 5000);
    expect(held.flatMap((s) => s.errors)).toEqual([]);

    // One ends (the client completes it): its slot is free, here on the other instance.
    held[0].stop();
    let again: LiveStream | undefined;
    await waitFor(
      'a subscription admitted again',
      async () => {
        again?.stop();
        again = await live.subscribe(onB, EVENTS);
        return again.errors.length === 0;
      },
      10_000,
    );
    // Another user is counted apart.
    const bob = await createUser(t, { username: 'capped-bob' });
    const his = await live.subscribe(live.connect(a, bob.token), EVENTS);
    expect(his.errors).toEqual([]);
  });
});

describe('subscribe operations per user and minute', () => {
  it('answers TOO_MANY_REQUESTS with the wait past SUBSCRIPTION_RATE_PER_MINUTE, invalid documents counted, the connection kept', async () => {
    const url = await instance({ SUBSCRIPTION_RATE_PER_MINUTE: '5' });
    const carol = await createUser(t, { username: 'busy-carol' });
    const client = live.connect(url, carol.token);
    // Eleven at once: whatever minute boundary falls among them, no window admits more than five.
    const answers: LiveStream[] = [];
    for (let i = 0; i < 11; i += 1)
      answers.push(await live.subscribe(client, i % 2 ? EVENTS : 'subscription { nope }'));
    await waitFor('the invalid ones answered', () => answers.every((s, i) => i % 2 === 1 || s.errors.length > 0), 5000);
    const first = answers.findIndex((s) => refusal(s)?.extensions?.code === 'TOO_MANY_REQUESTS');
    expect(first).toBeGreaterThanOrEqual(5);
    const refused = refusal(answers[first])!;
    expect(refused.message).toMatch(/^Too many subscribe operations: at most 5 a minute; retry in \d+ s$/);
    expect(refused.extensions?.retryAfter).toBeGreaterThan(0);
    expect(refused.extensions?.retryAfter).toBeLessThanOrEqual(60);
    // Before it: the ordinary answers (a validation error, or a running subscription).
    expect(
      answers.slice(0, 5).map((s, i) => (i % 2 ? s.errors : JSON.stringify(s.errors).includes('Cannot query field'))),
    ).toEqual([true, [], true, [], true]);
    // The connection is still open: a refused subscribe is an answer, not a close (a CloseEvent with a code).
    expect(answers.flatMap((s) => s.errors).filter((e) => typeof (e as { code?: unknown }).code === 'number')).toEqual(
      [],
    );
  });
});
