import request from 'supertest';
import { createUser } from '../support/factories';
import { ROOT_TOKEN, useTestApp } from '../support/test-app';
import { waitFor } from '../reliability/fault-support';

/**
 * The unique-IPs limit (spec 4.18) records each user's addresses; a request expires only its own user's
 * old ones. A background clean-up on every instance deletes the addresses of every user last seen before
 * the current window, so users who stop calling do not keep rows for ever (docs/rest.md#application-settings;
 * configuration: UNIQUE_IPS_PRUNE_MS).
 */
const t = useTestApp({ env: { UNIQUE_IPS_PRUNE_MS: '200' } });

const ips = async () =>
  (await t.orm.em.getConnection().execute('select user_id, ip from user_request_ips order by user_id, ip')) as {
    user_id: number;
    ip: string;
  }[];

describe('unique IPs clean-up', () => {
  it('deletes addresses last seen before the window, of any user, and keeps those inside it', async () => {
    const [alice, bob] = [await createUser(t, { username: 'alice' }), await createUser(t, { username: 'bob' })];
    await request(t.app)
      .put('/api/v4/application/settings')
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .send({ unique_ips_limit_time_window: 600 })
      .expect(200);
    await t.orm.em.getConnection().execute(
      `insert into user_request_ips (user_id, ip, last_seen_at) values
         (?, '192.0.2.1', now() - interval '11 minutes'), (?, '192.0.2.2', now() - interval '9 minutes'),
         (?, '192.0.2.3', now() - interval '2 days')`,
      [alice.id, alice.id, bob.id],
    );
    await waitFor('the stale addresses are gone', async () => (await ips()).length === 1, 5000);
    expect(await ips()).toEqual([{ user_id: alice.id, ip: '192.0.2.2' }]);
  });

  it("uses GitLab's default window (3600 s) when no settings row was written yet", async () => {
    const alice = await createUser(t, { username: 'alice' });
    await t.orm.em.getConnection().execute('delete from application_settings');
    await t.orm.em
      .getConnection()
      .execute(
        `insert into user_request_ips (user_id, ip, last_seen_at) values (?, '192.0.2.1', now() - interval '61 minutes'), (?, '192.0.2.2', now() - interval '59 minutes')`,
        [alice.id, alice.id],
      );
    await waitFor('the address past an hour is gone', async () => (await ips()).length === 1, 5000);
    expect(await ips()).toEqual([{ user_id: alice.id, ip: '192.0.2.2' }]);
  });
});
