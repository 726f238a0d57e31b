import { createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { FEATURES_CACHE_KEY } from '../../src/modules/features/feature.service';

const t = useTestApp();
// reset() truncates behind the service's back: forget the cached flags as a write would.
beforeEach(() => t.cache.invalidate(t.orm.em.fork(), FEATURES_CACHE_KEY));

const FEATURE_KEYS_IN_ORDER = ['name', 'state', 'gates'];
const admin = () => api(t, ROOT_TOKEN);
const setGate = async (name: string, body: Record<string, unknown>) => {
  const res = await admin().post(`/api/v4/features/${name}`).send(body);
  expect(res.status).toBe(201);
  return res.body;
};

describe('every /features route is admin-only', () => {
  it.each([
    ['GET', '/api/v4/features'],
    ['POST', '/api/v4/features/flag'],
    ['DELETE', '/api/v4/features/flag'],
  ])('%s %s: anonymous 401, user 403 before parameters', async (method, path) => {
    const user = await createUser(t);
    const call = (token?: string) =>
      method === 'GET'
        ? api(t, token).get(path)
        : method === 'POST'
          ? api(t, token).post(path).send({})
          : api(t, token).delete(path);
    expect([(await call()).status, (await call()).body]).toEqual([401, { message: '401 Unauthorized' }]);
    expect([(await call(user.token)).status, (await call(user.token)).body]).toEqual([
      403,
      { message: '403 Forbidden' },
    ]);
  });
});

describe('GET /features', () => {
  it('lists every persisted feature in storage order, without pagination headers; 1 and 20 cost the same', async () => {
    const empty = await admin().get('/api/v4/features');
    expect([empty.status, empty.body]).toEqual([200, []]);
    await setGate('zeta', { value: 'true' });
    const one = await t.countQueries(() => admin().get('/api/v4/features').expect(200));
    expect(one.result.body).toEqual([{ name: 'zeta', state: 'on', gates: [{ key: 'boolean', value: true }] }]);
    expect(Object.keys(one.result.body[0])).toEqual(FEATURE_KEYS_IN_ORDER);
    expect(one.result.headers['content-type']).toBe('application/json');
    for (const h of ['x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'link'])
      expect(one.result.headers).not.toHaveProperty(h);
    for (let i = 0; i < 24; i += 1) await setGate(`flag_${i}`, { value: String(i) });
    const many = await t.countQueries(() => admin().get('/api/v4/features?per_page=5').expect(200));
    expect(many.result.body).toHaveLength(25); // not paginated: per_page is ignored
    expect(many.count).toBe(one.count);
    expect(many.result.body.map((f: { name: string }) => f.name).slice(0, 3)).toEqual(['zeta', 'flag_0', 'flag_1']);
  });

  it('answers python-gitlab 3.x paths: GET /features/ (trailing slash)', async () => {
    await setGate('py_flag', { value: 'true' });
    const res = await admin().get('/api/v4/features/');
    expect([res.status, res.body]).toEqual([
      200,
      [{ name: 'py_flag', state: 'on', gates: [{ key: 'boolean', value: true }] }],
    ]);
  });
});

describe('POST /features/:name', () => {
  it('creates with 201 and sets the boolean gate: true → on, false → off', async () => {
    const on = await admin().post('/api/v4/features/new_library').type('form').send('value=true');
    expect(on.status).toBe(201);
    expect(Object.keys(on.body)).toEqual(FEATURE_KEYS_IN_ORDER);
    expect(on.body).toEqual({ name: 'new_library', state: 'on', gates: [{ key: 'boolean', value: true }] });
    expect(await setGate('new_library', { value: 'false' })).toEqual({
      name: 'new_library',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
    expect(await setGate('fresh_off', { value: '0' })).toEqual({
      name: 'fresh_off',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from features'))!.n).toBe('2');
  });

  it('reads any other value as a percentage of time, like Ruby to_i; targets are ignored then', async () => {
    const u = await createUser(t);
    expect(await setGate('pct', { value: '30', user: u.username })).toEqual({
      name: 'pct',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    });
    expect((await setGate('pct', { value: '12x' })).gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_time', value: 12 },
    ]);
    expect(await setGate('pct', { value: 'abc' })).toEqual({
      name: 'pct',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
    expect((await setGate('one_pct', { value: '1' })).gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_time', value: 1 },
    ]);
    expect(await setGate('full', { value: '100' })).toEqual({
      name: 'full',
      state: 'on',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 100 },
      ],
    });
  });

  it('true keeps the other gates; a plain false clears every gate', async () => {
    await setGate('mixed', { value: '40' });
    const u = await createUser(t);
    await setGate('mixed', { value: 'true', user: u.username });
    expect(await setGate('mixed', { value: 'true' })).toEqual({
      name: 'mixed',
      state: 'on',
      gates: [
        { key: 'boolean', value: true },
        { key: 'actors', value: [`User:${u.id}`] },
        { key: 'percentage_of_time', value: 40 },
      ],
    });
    expect(await setGate('mixed', { value: 'false' })).toEqual({
      name: 'mixed',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
    expect(
      await queryOne(
        t,
        'select boolean_value, actors, groups, percentage_of_actors, percentage_of_time from features where name = ?',
        ['mixed'],
      ),
    ).toEqual({
      boolean_value: false,
      actors: [],
      groups: [],
      percentage_of_actors: 0,
      percentage_of_time: 0,
    });
  });

  it('enables and disables for a user and a feature group, both in one call', async () => {
    const u = await createUser(t, { username: 'Target_User' });
    const other = await createUser(t);
    expect(await setGate('beta', { value: 'true', feature_group: 'perf_team', user: 'target_user' })).toEqual({
      name: 'beta',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'actors', value: [`User:${u.id}`] },
        { key: 'groups', value: ['perf_team'] },
      ],
    });
    expect((await setGate('beta', { value: 'true', user: other.username })).gates[1]).toEqual({
      key: 'actors',
      value: [`User:${u.id}`, `User:${other.id}`],
    });
    expect((await setGate('beta', { value: 'true', user: other.username })).gates[1].value).toHaveLength(2); // idempotent
    expect(await setGate('beta', { value: 'false', user: u.username, feature_group: 'perf_team' })).toEqual({
      name: 'beta',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'actors', value: [`User:${other.id}`] },
      ],
    });
    expect(await setGate('beta', { value: '0', user: other.username })).toEqual({
      name: 'beta',
      state: 'off',
      gates: [{ key: 'boolean', value: false }],
    });
  });

  it('sets the percentage of actors with key=percentage_of_actors (later GitLab)', async () => {
    expect(await setGate('rollout', { value: '25', key: 'percentage_of_actors' })).toEqual({
      name: 'rollout',
      state: 'conditional',
      gates: [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 25 },
      ],
    });
    expect((await setGate('rollout', { value: '10', key: 'percentage_of_time' })).gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_actors', value: 25 },
      { key: 'percentage_of_time', value: 10 },
    ]);
  });

  it('takes python-gitlab 3.x calls: POST /features//<name> with a JSON boolean or integer value', async () => {
    const res = await admin().post('/api/v4/features//py_bool').send({ value: true });
    expect([res.status, res.body]).toEqual([
      201,
      { name: 'py_bool', state: 'on', gates: [{ key: 'boolean', value: true }] },
    ]);
    expect((await admin().post('/api/v4/features//py_int/').send({ value: 50 })).body.gates).toEqual([
      { key: 'boolean', value: false },
      { key: 'percentage_of_time', value: 50 },
    ]);
  });

  it('answers 400 with clear bodies where GitLab answered 400 or 500', async () => {
    const u = await createUser(t);
    const bad = async (path: string, body: Record<string, unknown>) => {
      const res = await admin().post(path).send(body);
      expect(res.status).toBe(400);
      return res.body;
    };
    expect(await bad('/api/v4/features/f', {})).toEqual({ error: 'value is missing' });
    expect(await bad('/api/v4/features/f', { value: '150' })).toEqual({
      error: 'value must be true, false or a percentage between 0 and 100',
    });
    expect(await bad('/api/v4/features/f', { value: '-5' })).toEqual({
      error: 'value must be true, false or a percentage between 0 and 100',
    });
    expect(await bad('/api/v4/features/f', { value: 'true', feature_group: 'no_such_group' })).toEqual({
      error: 'feature_group does not have a valid value',
    });
    expect(await bad('/api/v4/features/f', { value: 'true', user: 'nobody' })).toEqual({
      error: 'user nobody is not found',
    });
    expect(
      await bad('/api/v4/features/f', {
        value: '5',
        key: 'percentage_of_actors',
        user: u.username,
        feature_group: 'perf_team',
      }),
    ).toEqual({
      error: 'key, feature_group are mutually exclusive, key, user are mutually exclusive',
    });
    for (const name of ['with-dash', 'dot.name', 'sp%20ace', 'a%2Fb', 'x'.repeat(256)])
      expect(await bad(`/api/v4/features/${name}`, { value: 'true' })).toEqual({ error: 'name is invalid' });
    expect((await queryOne<{ n: string }>(t, 'select count(*) as n from features'))!.n).toBe('0');
  });
});

describe('DELETE /features/:name', () => {
  it('removes the feature with 204, also when it does not exist; python-gitlab path too', async () => {
    await setGate('gone', { value: 'true' });
    const res = await admin().delete('/api/v4/features/gone');
    expect([res.status, res.text]).toEqual([204, '']);
    expect((await admin().get('/api/v4/features')).body).toEqual([]);
    expect((await admin().delete('/api/v4/features//never_existed')).status).toBe(204);
    expect((await admin().delete('/api/v4/features/bad-name')).body).toEqual({ error: 'name is invalid' });
  });
});

describe('OpenAPI for /features and /broadcast_messages', () => {
  it('documents arrays for both lists and exactly the keys the routes send', async () => {
    await setGate('doc_flag', { value: '10', user: (await createUser(t)).username });
    await admin().post('/api/v4/broadcast_messages').send({ message: 'm' }).expect(201);
    type Schema = {
      type?: string;
      items?: { $ref: string };
      $ref?: string;
      required?: string[];
      properties?: Record<string, unknown>;
    };
    const doc = (await api(t).get('/api/v4/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: { 'application/json': { schema: Schema } } }> }>
      >;
      components: { schemas: Record<string, Schema> };
    };
    const ok = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    const component = (ref: string) => doc.components.schemas[ref.split('/').pop()!];
    const features = (await admin().get('/api/v4/features')).body;
    expect(ok('/features', 'get', '200')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Feature' } });
    expect(component('Feature').required).toEqual(Object.keys(features[0]));
    expect(component('FeatureGate').required).toEqual(Object.keys(features[0].gates[1]));
    expect(ok('/features/{name}', 'post', '201')).toEqual({ $ref: '#/components/schemas/Feature' });
    const messages = (await admin().get('/api/v4/broadcast_messages')).body;
    expect(ok('/broadcast_messages', 'get', '200')).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/BroadcastMessage' },
    });
    expect(component('BroadcastMessage').required).toEqual(Object.keys(messages[0]));
    expect(Object.keys(doc.paths['/features/{name}'])).toEqual(['post', 'delete']);
  });
});
