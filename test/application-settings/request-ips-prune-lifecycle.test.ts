import { Client } from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/app';
import { initOrm } from '../../src/core/db/orm';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { createUser } from '../support/factories';
import { TEST_SECRETS, useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/**
 * The unique-IPs clean-up's life cycle (modules/application-settings/unique-ips.ts): one round at a time
 * per instance, and a stop that does not wait for a long clean-up to finish. The file's own app prunes
 * hourly (never during the test); a second instance prunes every 200 ms.
 */
const t = useTestApp();

async function pruningInstance() {
  const orm = await initOrm({ clientUrl: t.orm.config.getClientUrl(), poolMax: 4, model: ormModelOf(MODULES) });
  const built = await buildApp({
    orm,
    logger: pino({ level: 'silent' }),
    externalUrl: 'http://gitlab.test',
    secrets: TEST_SECRETS,
    modules: MODULES,
    env: { UNIQUE_IPS_PRUNE_MS: '200' },
  });
  return { stop: () => built.stop(), close: () => orm.close(true) };
}

/** A second session holding SHARE on the table: the clean-up's DELETE waits for it, reads do not. */
async function lockTable(): Promise<{ release: () => Promise<void> }> {
  const c = new Client({ connectionString: t.orm.config.getClientUrl() });
  await c.connect();
  await c.query('begin');
  await c.query('lock table user_request_ips in share mode');
  return {
    release: async () => {
      await c.query('commit');
      await c.end();
    },
  };
}

const sql = <T>(q: string, params: unknown[] = []) => t.orm.em.getConnection().execute(q, params) as Promise<T[]>;
const waitingDeletes = async () =>
  Number(
    (
      await sql<{ n: string }>(
        `select count(*) as n from pg_stat_activity where pid <> pg_backend_pid() and datname = current_database() and query like '%delete from user_request_ips%' and state = 'active'`,
      )
    )[0].n,
  );
const stale = async () => Number((await sql<{ n: string }>('select count(*) as n from user_request_ips'))[0].n);

async function staleAddresses(n: number): Promise<void> {
  const u = await createUser(t, { username: 'roamer' });
  await sql(
    `insert into user_request_ips (user_id, ip, last_seen_at)
     select ?, '10.' || (i / 65536) || '.' || (i / 256 % 256) || '.' || (i % 256), now() - interval '2 days' from generate_series(1, ?) i`,
    [u.id, n],
  );
}

describe('unique IPs clean-up: life cycle', () => {
  it('a round still deleting makes the next ticks skip: one DELETE at a time per instance, then the rows go', async () => {
    await staleAddresses(3);
    const lock = await lockTable();
    const inst = await pruningInstance();
    try {
      await waitFor('the first round waits on the lock', async () => (await waitingDeletes()) >= 1, 5000);
      await new Promise((r) => setTimeout(r, 1200)); // six more ticks
      expect(await waitingDeletes()).toBe(1);
      await lock.release();
      await waitFor('the round finishes', async () => (await stale()) === 0, 5000);
    } finally {
      await inst.stop();
      await inst.close();
    }
  });

  it('stop() during a long clean-up returns after the batch in flight (5,000 rows), leaving the rest for the next start', async () => {
    await staleAddresses(12_000);
    const lock = await lockTable();
    const inst = await pruningInstance();
    try {
      await waitFor('the first batch waits on the lock', async () => (await waitingDeletes()) === 1, 5000);
      const stopped = inst.stop();
      await lock.release();
      await stopped;
      expect(await stale()).toBe(7_000);
      expect(await waitingDeletes()).toBe(0);
    } finally {
      await inst.close();
    }
  });
});
