import request from 'supertest';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { FEATURES_CACHE_KEY } from '../../src/modules/features/feature.service';

/** Two app instances on one database: flags are cached per process and invalidated by NOTIFY at commit. */
const t = useTestApp();
beforeEach(() => t.cache.invalidate(t.orm.em.fork(), FEATURES_CACHE_KEY));

const enabledVia = async (app: Parameters<typeof request>[0], name: string) =>
  (
    await request(app)
      .post('/graphql')
      .send({ query: `{ featureEnabled(name: "${name}") }` })
  ).body.data.featureEnabled as boolean;

describe('feature flags across instances', () => {
  it('a flag flipped through one instance is seen through the other, in both directions', async () => {
    const b = await t.secondInstance();
    await api(t, ROOT_TOKEN).post('/api/v4/features/shared_flag').send({ value: 'true' }).expect(201);
    await t.settled();
    expect(await enabledVia(b.app, 'shared_flag')).toBe(true); // now cached in B

    // Proof that B serves from its cache: a change behind the service's back with the table's trigger
    // off (no NOTIFY) is not seen.
    const conn = t.orm.em.getConnection();
    await conn.execute('alter table features disable trigger features_cache_notify');
    try {
      await conn.execute(`update features set boolean_value = false where name = 'shared_flag'`);
      expect(await enabledVia(b.app, 'shared_flag')).toBe(true);
      await conn.execute(`update features set boolean_value = true where name = 'shared_flag'`);
    } finally {
      await conn.execute('alter table features enable trigger features_cache_notify');
    }
    // With it on (as deployed), a write from anywhere (an SQL console, another program) reaches B at commit.
    await conn.execute(`insert into features (name, boolean_value) values ('sql_flag', true)`);
    await t.settled();
    expect(await enabledVia(b.app, 'sql_flag')).toBe(true);
    await conn.execute(`delete from features where name = 'sql_flag'`);
    await t.settled();
    expect(await enabledVia(b.app, 'sql_flag')).toBe(false);

    // A write through A notifies at commit; B forgets its entry and reloads.
    await api(t, ROOT_TOKEN).post('/api/v4/features/shared_flag').send({ value: 'false' }).expect(201);
    await t.settled();
    expect(await enabledVia(b.app, 'shared_flag')).toBe(false);
    expect((await request(b.app).get('/api/v4/features').set('PRIVATE-TOKEN', ROOT_TOKEN)).body).toEqual([
      { name: 'shared_flag', state: 'off', gates: [{ key: 'boolean', value: false }] },
    ]);

    // The other direction, with the real switch: B turns the GraphiQL page off, A stops serving it.
    expect((await request(t.app).get('/-/graphiql')).status).toBe(200);
    await request(b.app)
      .post('/api/v4/features/graphiql')
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .send({ value: 'false' })
      .expect(201);
    await t.settled();
    expect((await request(t.app).get('/-/graphiql')).status).toBe(404);
    await request(b.app).delete('/api/v4/features/graphiql').set('PRIVATE-TOKEN', ROOT_TOKEN).expect(204);
    await t.settled();
    expect((await request(t.app).get('/-/graphiql')).status).toBe(200);
  });
});
