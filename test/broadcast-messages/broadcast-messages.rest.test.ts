import { createUser, queryOne } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/** A clock the tests move: `active` is computed from it when each response is built. */
let now = new Date('2026-11-22T10:00:00.000Z');
const t = useTestApp({ clock: { now: () => now } });
beforeEach(() => {
  now = new Date('2026-11-22T10:00:00.000Z');
});

// Entities::BroadcastMessage of GitLab 10.3 (spec 2.6), in its key order.
const KEYS_IN_ORDER = ['id', 'message', 'starts_at', 'ends_at', 'color', 'font', 'active'];
const BASE = '/api/v4/broadcast_messages';
const admin = () => api(t, ROOT_TOKEN);
const create = async (body: Record<string, unknown>) => (await admin().post(BASE).send(body).expect(201)).body;

describe('every /broadcast_messages route is admin-only (spec 5.3, 5.6)', () => {
  it.each([
    ['GET', BASE],
    ['GET', `${BASE}/1`],
    ['POST', BASE],
    ['PUT', `${BASE}/1`],
    ['DELETE', `${BASE}/1`],
  ])('%s %s: anonymous 401, user 403, before parameter validation', async (method, path) => {
    await create({ message: 'm' });
    const user = await createUser(t);
    const call = (token?: string) => {
      const c = api(t, token);
      return method === 'GET'
        ? c.get(path)
        : method === 'POST'
          ? c.post(path).send({})
          : method === 'PUT'
            ? c.put(path).send({ color: 'x' })
            : c.delete(path);
    };
    const anon = await call();
    expect([anon.status, anon.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const forbidden = await call(user.token);
    expect([forbidden.status, forbidden.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await call('not-a-token')).status).toBe(401);
  });
});

describe('POST /broadcast_messages', () => {
  it('creates with GitLab defaults from the clock: now, now + 1 hour, #E75E40 on #FFFFFF, active', async () => {
    const res = await admin().post(BASE).type('form').send('message=Maintenance tonight');
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(Object.keys(res.body)).toEqual(KEYS_IN_ORDER);
    expect(res.body).toEqual({
      id: 1,
      message: 'Maintenance tonight',
      starts_at: '2026-11-22T10:00:00.000Z',
      ends_at: '2026-11-22T11:00:00.000Z',
      color: '#E75E40',
      font: '#FFFFFF',
      active: true,
    });
    const row = await queryOne(
      t,
      `select message, color, font, starts_at = '2026-11-22T10:00:00Z' as starts_ok, ends_at = '2026-11-22T11:00:00Z' as ends_ok
      from broadcast_messages where id = 1`,
    );
    expect(row).toEqual({
      message: 'Maintenance tonight',
      color: '#E75E40',
      font: '#FFFFFF',
      starts_ok: true,
      ends_ok: true,
    });
  });

  it('takes ISO 8601 with any offset and serves UTC with milliseconds; colours of 3 or 6 digits or blank', async () => {
    const body = await create({
      message: 'x',
      starts_at: '2026-11-22T12:30:00+02:00',
      ends_at: '2026-11-23T08:00:00.5Z',
      color: '#abc',
      font: '',
    });
    expect(body).toMatchObject({
      starts_at: '2026-11-22T10:30:00.000Z',
      ends_at: '2026-11-23T08:00:00.500Z',
      color: '#abc',
      font: '',
      active: false,
    });
    expect(
      await create({ message: 'y', starts_at: '2026-11-22', ends_at: '2026-11-22 10:30:00', color: '#A0b1C2' }),
    ).toMatchObject({
      starts_at: '2026-11-22T00:00:00.000Z',
      ends_at: '2026-11-22T10:30:00.000Z',
      color: '#A0b1C2',
      font: '#FFFFFF',
      active: true,
    });
  });

  it('stores an inverted window, which is simply never active; past and future windows are inactive', async () => {
    const inverted = await create({
      message: 'inv',
      starts_at: '2026-11-22T11:00:00Z',
      ends_at: '2026-11-22T09:00:00Z',
    });
    expect(inverted).toMatchObject({
      starts_at: '2026-11-22T11:00:00.000Z',
      ends_at: '2026-11-22T09:00:00.000Z',
      active: false,
    });
    expect(
      (await create({ message: 'past', starts_at: '2026-11-01T00:00:00Z', ends_at: '2026-11-02T00:00:00Z' })).active,
    ).toBe(false);
    const future = await create({
      message: 'future',
      starts_at: '2026-12-01T00:00:00Z',
      ends_at: '2026-12-02T00:00:00Z',
    });
    expect(future.active).toBe(false);
    now = new Date('2026-12-01T12:00:00Z'); // active is computed at response time, not stored
    expect((await admin().get(`${BASE}/${future.id}`)).body.active).toBe(true);
    now = new Date('2026-12-02T00:00:00Z'); // both ends inclusive
    expect((await admin().get(`${BASE}/${future.id}`)).body.active).toBe(true);
  });

  it('answers every validation failure with GitLab bodies', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await admin().post(BASE).send(body);
      expect(res.status).toBe(400);
      return res.body;
    };
    expect(await bad({})).toEqual({ error: 'message is missing' });
    expect(await bad({ message: 'x', starts_at: 'tomorrow' })).toEqual({ error: 'starts_at is invalid' });
    expect(await bad({ message: 'x', starts_at: '2026-02-30T00:00:00Z', ends_at: '2026-13-01' })).toEqual({
      error: 'starts_at is invalid, ends_at is invalid',
    });
    expect(await bad({ message: 'x', ends_at: '2026-11-22T25:00:00Z' })).toEqual({ error: 'ends_at is invalid' });
    expect(await bad({ message: 'x', color: 'red' })).toEqual({ message: { color: ['must be a valid color code'] } });
    expect(await bad({ message: 'x', color: '#abcd', font: '#12345' })).toEqual({
      message: { color: ['must be a valid color code'], font: ['must be a valid color code'] },
    });
    expect(await bad({ message: '  ' })).toEqual({ message: { message: ["can't be blank"] } });
    expect(await bad({ message: 'x\u0000y' })).toEqual({ error: 'message is invalid' });
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from broadcast_messages'))!.n).toBe('0');
  });
});

describe('GET /broadcast_messages', () => {
  it('lists newest first with pagination headers; 1 and 20 rows cost the same statements', async () => {
    await create({ message: 'first' });
    const one = await t.countQueries(() => admin().get(BASE).expect(200));
    expect(one.result.body).toHaveLength(1);
    expect(Object.keys(one.result.body[0])).toEqual(KEYS_IN_ORDER);
    for (let i = 2; i <= 25; i += 1) await create({ message: `m${i}` });
    const twenty = await t.countQueries(() => admin().get(BASE).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
    expect(twenty.result.body.map((m: { message: string }) => m.message).slice(0, 3)).toEqual(['m25', 'm24', 'm23']);
    expect(twenty.result.headers).toMatchObject({
      'x-total': '25',
      'x-total-pages': '2',
      'x-per-page': '20',
      'x-page': '1',
      'x-next-page': '2',
      'x-prev-page': '',
    });
    const last = await admin().get(`${BASE}?page=2&per_page=20`);
    expect(last.body.map((m: { message: string }) => m.message)).toEqual(['m5', 'm4', 'm3', 'm2', 'first']);
    expect(last.headers.link).toContain('rel="prev"');
    expect((await admin().get(`${BASE}?per_page=500`)).headers['x-per-page']).toBe('100');
    expect((await admin().get(`${BASE}?page=abc`)).body).toEqual({ error: 'page is invalid' });
  });
});

describe('GET /broadcast_messages/:id', () => {
  it('shows one message; unknown id 404 "Not found", non-integer id 400', async () => {
    const m = await create({ message: 'one', color: '#000' });
    const res = await admin().get(`${BASE}/${m.id}`);
    expect([res.status, res.body]).toEqual([200, m]);
    expect(keys(res.body)).toEqual(['active', 'color', 'ends_at', 'font', 'id', 'message', 'starts_at']);
    expect((await admin().get(`${BASE}/4242`)).body).toEqual({ message: '404 Not found' });
    expect((await admin().get(`${BASE}/99999999999`)).body).toEqual({ message: '404 Not found' });
    const invalid = await admin().get(`${BASE}/abc`);
    expect([invalid.status, invalid.body]).toEqual([400, { error: 'id is invalid' }]);
  });
});

describe('PUT /broadcast_messages/:id', () => {
  it('changes only the given fields and persists them; no fields → 200 unchanged', async () => {
    const m = await create({ message: 'old', starts_at: '2026-11-22T09:00:00Z', ends_at: '2026-11-22T09:30:00Z' });
    const same = await admin().put(`${BASE}/${m.id}`);
    expect([same.status, same.body]).toEqual([200, m]);
    const res = await admin()
      .put(`${BASE}/${m.id}`)
      .type('form')
      .send('message=new&ends_at=2026-11-22T12:00:00Z&font=%23333');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...m, message: 'new', ends_at: '2026-11-22T12:00:00.000Z', font: '#333', active: true });
    expect((await admin().get(`${BASE}/${m.id}`)).body).toEqual(res.body);
  });

  it('validates like POST and answers 404 / 400 for ids', async () => {
    const m = await create({ message: 'x' });
    expect((await admin().put(`${BASE}/${m.id}`).send({ color: '#12' })).body).toEqual({
      message: { color: ['must be a valid color code'] },
    });
    expect((await admin().put(`${BASE}/${m.id}`).send({ message: '' })).body).toEqual({
      message: { message: ["can't be blank"] },
    });
    expect((await admin().put(`${BASE}/${m.id}`).send({ starts_at: 'never' })).body).toEqual({
      error: 'starts_at is invalid',
    });
    expect((await admin().put(`${BASE}/4242`).send({ message: 'y' })).body).toEqual({ message: '404 Not found' });
    expect((await admin().put(`${BASE}/4242`).send({ starts_at: 'never' })).body).toEqual({
      error: 'starts_at is invalid',
    }); // parameters before lookup
    expect((await admin().put(`${BASE}/x`).send({ message: 'y' })).body).toEqual({ error: 'id is invalid' });
    expect((await admin().get(`${BASE}/${m.id}`)).body).toEqual(m);
  });
});

describe('DELETE /broadcast_messages/:id', () => {
  it('deletes with 204 and an empty body; then 404', async () => {
    const m = await create({ message: 'bye' });
    const res = await admin().delete(`${BASE}/${m.id}`);
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await admin().get(`${BASE}/${m.id}`)).status).toBe(404);
    expect((await admin().delete(`${BASE}/${m.id}`)).body).toEqual({ message: '404 Not found' });
    expect((await admin().delete(`${BASE}/abc`)).body).toEqual({ error: 'id is invalid' });
  });
});
