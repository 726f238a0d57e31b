import request from 'supertest';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Every instance caches whether any system hook exists (without one, a write records no event). A hook
 * row added or removed by something else than the service (an SQL console, another program) reaches
 * every instance's cache at commit through the table's trigger.
 */
const t = useTestApp();

const outbox = async () =>
  Number(
    ((await t.orm.em.getConnection().execute('select count(*) as n from system_hook_events')) as { n: string }[])[0].n,
  );
let n = 0;
const createUserVia = async (app: Parameters<typeof request>[0]) => {
  n += 1;
  await request(app)
    .post('/api/v4/users')
    .set('PRIVATE-TOKEN', ROOT_TOKEN)
    .send({ email: `hc${n}@example.com`, username: `hc${n}`, name: `Hc ${n}`, password: 'secret-password-1' })
    .expect(201);
};

describe('the "any system hook?" cache', () => {
  it('follows hooks inserted and deleted straight in the table, on every instance', async () => {
    const b = await t.secondInstance();
    await createUserVia(b.app); // B now knows: no hook
    expect(await outbox()).toBe(0);

    // 192.0.2.0/24 (TEST-NET-1): never delivered to; the rows only show that events are written.
    await t.orm.em
      .getConnection()
      .execute(
        `insert into system_hooks (url, last_txid) values ('http://192.0.2.1/hook', pg_snapshot_xmin(pg_current_snapshot()))`,
      );
    await t.settled();
    await createUserVia(b.app);
    expect(await outbox()).toBe(1);
    await createUserVia(t.app);
    expect(await outbox()).toBe(2);

    const [{ last }] = (await t.orm.em
      .getConnection()
      .execute('select coalesce(max(id), 0) as last from system_hook_events')) as { last: string }[];
    await t.orm.em.getConnection().execute('delete from system_hooks');
    await t.settled();
    await createUserVia(b.app);
    await createUserVia(t.app);
    const [{ added }] = (await t.orm.em
      .getConnection()
      .execute('select count(*) as added from system_hook_events where id > ?', [last])) as { added: string }[];
    expect(Number(added)).toBe(0);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/hooks').expect(200)).body).toEqual([]);
  });
});
