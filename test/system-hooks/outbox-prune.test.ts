import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/**
 * The system hooks outbox (docs/rest.md#system-hooks) keeps an event only until every hook has passed it:
 * the deliverer deletes what the slowest hook's cursor is past (SYSTEM_HOOK_PRUNE_MS, here 100 ms).
 * A hook that keeps failing holds its events; deleting it lets them go.
 */
const t = useTestApp({
  env: {
    SYSTEM_HOOK_PRUNE_MS: '100',
    SYSTEM_HOOK_RETRY_BASE_MS: '100',
    SYSTEM_HOOK_RETRY_MAX_MS: '200',
    SYSTEM_HOOK_TIMEOUT_MS: '2000',
  },
});
const admin = () => api(t, ROOT_TOKEN);

async function receiver(status: () => number) {
  let delivered = 0;
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const s = status();
      if (s === 200) {
        delivered += 1;
        bodies.push(JSON.parse(text) as Record<string, unknown>);
      }
      res.writeHead(s).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    delivered: () => delivered,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let n = 0;
/** POST /users: one user_create event. */
const createUser = async () => {
  n += 1;
  await admin()
    .post('/api/v4/users')
    .send({ email: `prune${n}@example.com`, username: `prune${n}`, name: `Prune ${n}`, password: 'secret-password-1' })
    .expect(201);
};
const outbox = async () =>
  Number(
    ((await t.orm.em.getConnection().execute('select count(*) as n from system_hook_events')) as { n: string }[])[0].n,
  );

describe('system hooks outbox', () => {
  it('deletes the events every hook has received, keeps those a failing hook has not, and lets them go with the hook', async () => {
    await admin()
      .put('/api/v4/application/settings')
      .send({ allow_local_requests_from_system_hooks: true })
      .expect(200);
    const ok = await receiver(() => 200);
    let failing = true;
    const bad = await receiver(() => (failing ? 500 : 200));
    try {
      await admin().post('/api/v4/hooks').send({ url: ok.url }).expect(201);
      for (let i = 0; i < 3; i += 1) await createUser();
      await waitFor('three user_create events delivered', () => ok.delivered() >= 3);
      await waitFor('the delivered events deleted', async () => (await outbox()) === 0, 10000);

      const slow = (await admin().post('/api/v4/hooks').send({ url: bad.url }).expect(201)).body as { id: number };
      for (let i = 0; i < 2; i += 1) await createUser();
      await waitFor('the healthy hook got both', () => ok.delivered() >= 5);
      // Several prune rounds pass (100 ms apart) while the failing hook holds both events.
      await new Promise((r) => setTimeout(r, 600));
      expect(await outbox()).toBe(2);

      failing = false;
      await waitFor('the failing hook recovered', () => bad.delivered() >= 2, 10000);
      await waitFor('its events deleted', async () => (await outbox()) === 0, 10000);

      failing = true;
      await createUser();
      await waitFor('the healthy hook got it', () => ok.delivered() >= 6);
      await new Promise((r) => setTimeout(r, 300));
      expect(await outbox()).toBe(1);
      await admin().delete(`/api/v4/hooks/${slow.id}`).expect(204);
      await createUser(); // wakes the deliverer; the remaining hook takes this one and the slow hook's is no longer held
      await waitFor('everything deleted once the failing hook is gone', async () => (await outbox()) === 0, 10000);
    } finally {
      await ok.close();
      await bad.close();
    }
  });

  it('keeps the last 50 delivery logs of a hook', async () => {
    await admin()
      .put('/api/v4/application/settings')
      .send({ allow_local_requests_from_system_hooks: true })
      .expect(200);
    const ok = await receiver(() => 200);
    try {
      const hook = (await admin().post('/api/v4/hooks').send({ url: ok.url }).expect(201)).body as { id: number };
      for (let i = 0; i < 55; i += 1) await createUser();
      await waitFor('55 deliveries', () => ok.delivered() >= 55, 20000);
      const logs = await admin().get(`/api/v4/hooks/${hook.id}/events?per_page=100`).expect(200);
      expect(logs.headers['x-total']).toBe('50');
      expect(logs.body).toHaveLength(50);
    } finally {
      await ok.close();
    }
  });

  it('takes a large backlog a slice per round, between deliveries', async () => {
    await admin()
      .put('/api/v4/application/settings')
      .send({ allow_local_requests_from_system_hooks: true })
      .expect(200);
    const conn = t.orm.em.getConnection();
    // 100,000 rows of finished transactions, as an outbox that was never pruned would hold.
    await conn.execute(`insert into system_hook_events (txid, event_name, payload)
      select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1)::text::xid8, 'user_create', '{}'::jsonb from generate_series(1, 100000)`);
    const ok = await receiver(() => 200);
    try {
      await admin().post('/api/v4/hooks').send({ url: ok.url }).expect(201); // its cursor is past the backlog
      const started = Date.now();
      await createUser();
      await waitFor('a new event delivered while the backlog goes', () => ok.delivered() >= 1, 5000);
      const deliveredAfter = Date.now() - started;
      await waitFor('the backlog gone', async () => (await outbox()) === 0, 60000);
      expect(deliveredAfter).toBeLessThan(3000);
      // The hook got the new event and none of the backlog (older than its cursor: pruned, never sent).
      expect(ok.bodies).toEqual([expect.objectContaining({ event_name: 'user_create', username: `prune${n}` })]);
    } finally {
      await ok.close();
    }
  });
});
