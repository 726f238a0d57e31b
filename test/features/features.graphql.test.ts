import { createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { FEATURES_CACHE_KEY } from '../../src/modules/features/feature.service';

// The app's environment (main passes process.env): modules/features/feature-groups.ts reads it.
const t = useTestApp({ env: { FEATURE_GROUPS: 'beta_testers=grouped_user' } });
beforeEach(() => t.cache.invalidate(t.orm.em.fork(), FEATURES_CACHE_KEY));

const admin = () => api(t, ROOT_TOKEN);
const enabled = async (token: string | undefined, name: string) => {
  const res = await api(t, token).graphql('query($n: String!) { featureEnabled(name: $n) }', { n: name });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.featureEnabled as boolean;
};

describe('GraphQL feature flags', () => {
  it('features, featureGateSet and featureDelete show the same values as REST', async () => {
    const u = await createUser(t);
    const set = await admin().graphql(
      `mutation { featureGateSet(input: { name: "gql_flag", value: "true", user: "${u.username}", featureGroup: "perf_team" }) { feature { name state gates { key value } } errors } }`,
    );
    expect(set.body.data.featureGateSet).toEqual({
      feature: {
        name: 'gql_flag',
        state: 'CONDITIONAL',
        gates: [
          { key: 'boolean', value: false },
          { key: 'actors', value: [`User:${u.id}`] },
          { key: 'groups', value: ['perf_team'] },
        ],
      },
      errors: [],
    });
    await admin().post('/api/v4/features/rest_flag').send({ value: '30' }).expect(201);
    const rest = (await admin().get('/api/v4/features')).body;
    const gql = (await admin().graphql('{ features { nodes { name state gates { key value } } } }')).body.data.features;
    expect(gql.nodes.map((f: { state: string }) => ({ ...f, state: f.state.toLowerCase() }))).toEqual(rest);
    // An id for normalized client caches: the global id by name.
    expect((await admin().graphql('{ features { nodes { id name } } }')).body.data.features.nodes).toEqual([
      { id: 'gid://gitlab/Feature/gql_flag', name: 'gql_flag' },
      { id: 'gid://gitlab/Feature/rest_flag', name: 'rest_flag' },
    ]);
    expect((await admin().graphql('mutation { featureDelete(input: { name: "gql_flag" }) { errors } }')).body).toEqual({
      data: { featureDelete: { errors: [] } },
    });
    expect((await admin().get('/api/v4/features')).body.map((f: { name: string }) => f.name)).toEqual(['rest_flag']);
  });

  it('features is a connection in storage order: first/after and last/before pages, count; REST keeps one unpaged array', async () => {
    for (const name of ['flag_a', 'flag_b', 'flag_c'])
      await admin().post(`/api/v4/features/${name}`).send({ value: 'true' }).expect(201);
    const page = async (args: string) => {
      const res = await admin().graphql(
        `{ features(${args}) { count nodes { name } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.features as {
        count: number;
        nodes: { name: string }[];
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
      };
    };
    const names = (p: { nodes: { name: string }[] }) => p.nodes.map((n) => n.name);
    const first = await page('first: 2');
    expect([first.count, names(first), first.pageInfo.hasNextPage, first.pageInfo.hasPreviousPage]).toEqual([
      3,
      ['flag_a', 'flag_b'],
      true,
      false,
    ]);
    const next = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect([names(next), next.pageInfo.hasNextPage, next.pageInfo.hasPreviousPage]).toEqual([['flag_c'], false, true]);
    const last = await page('last: 2');
    expect([names(last), last.pageInfo.hasNextPage, last.pageInfo.hasPreviousPage]).toEqual([
      ['flag_b', 'flag_c'],
      false,
      true,
    ]);
    const before = await page(`last: 2, before: "${last.pageInfo.startCursor}"`);
    expect([names(before), before.pageInfo.hasPreviousPage]).toEqual([['flag_a'], false]);
    const rest = await admin().get('/api/v4/features').expect(200);
    expect(rest.body.map((f: { name: string }) => f.name)).toEqual(['flag_a', 'flag_b', 'flag_c']);
    expect(rest.headers['x-total']).toBeUndefined();
    // REST's unpaged list is not part of the public view.
    const internal = await admin().graphql('{ featureList { name } }');
    expect(internal.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers with error codes (UNAUTHENTICATED, FORBIDDEN, BAD_USER_INPUT) and mutation errors in the payload', async () => {
    const user = await createUser(t);
    const err = async (token: string | undefined, query: string) => {
      const e = (await api(t, token).graphql(query)).body.errors[0];
      return [e.extensions.code, e.message];
    };
    expect(await err(undefined, '{ features { nodes { name } } }')).toEqual(['UNAUTHENTICATED', '401 Unauthorized']);
    expect(await err(user.token, '{ features { nodes { name } } }')).toEqual(['FORBIDDEN', '403 Forbidden']);
    expect(await err(ROOT_TOKEN, '{ features(first: 1, last: 1) { nodes { name } } }')).toEqual([
      'BAD_USER_INPUT',
      'Can only provide either `first` or `last`, not both',
    ]);
    expect(await err(user.token, 'mutation { featureDelete(input: { name: "x" }) { errors } }')).toEqual([
      'FORBIDDEN',
      '403 Forbidden',
    ]);
    const payload = async (input: string) => {
      const res = await api(t, ROOT_TOKEN).graphql(
        `mutation { featureGateSet(input: ${input}) { feature { name } errors } }`,
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.featureGateSet.feature).toBeNull();
      return res.body.data.featureGateSet.errors;
    };
    expect(await payload('{ name: "x", value: "101" }')).toEqual([
      'value must be true, false or a percentage between 0 and 100',
    ]);
    expect(await payload('{ name: "x", value: "5", key: "percentage_of_actors", user: "a" }')).toEqual([
      'key, user are mutually exclusive',
    ]);
    expect(await payload('{ name: "bad-name", value: "true" }')).toEqual(['name is invalid']);
    expect(await err(undefined, '{ featureEnabled(name: "bad name") }')).toEqual(['BAD_USER_INPUT', 'name is invalid']);
  });
});

describe('featureEnabled(name): evaluated for the caller', () => {
  it('follows boolean, actor, group and percentage-of-actors gates; unset flags answer their default', async () => {
    const alice = await createUser(t, { username: 'alice_ff' });
    const grouped = await createUser(t, { username: 'grouped_user' });
    const other = await createUser(t);
    expect(await enabled(undefined, 'unset_flag')).toBe(false);
    expect(await enabled(undefined, 'graphiql')).toBe(true); // default_enabled
    await admin().post('/api/v4/features/for_alice').send({ value: 'true', user: 'alice_ff' }).expect(201);
    expect([
      await enabled(alice.token, 'for_alice'),
      await enabled(other.token, 'for_alice'),
      await enabled(undefined, 'for_alice'),
    ]).toEqual([true, false, false]);
    await admin().post('/api/v4/features/for_beta').send({ value: 'true', feature_group: 'beta_testers' }).expect(201);
    expect([await enabled(grouped.token, 'for_beta'), await enabled(alice.token, 'for_beta')]).toEqual([true, false]);
    await admin().post('/api/v4/features/for_all').send({ value: 'true' }).expect(201);
    expect(await enabled(undefined, 'for_all')).toBe(true);
    await admin().post('/api/v4/features/all_actors').send({ value: '100', key: 'percentage_of_actors' }).expect(201);
    expect([await enabled(other.token, 'all_actors'), await enabled(undefined, 'all_actors')]).toEqual([true, false]);
    await admin().post('/api/v4/features/no_time').send({ value: 'abc' }).expect(201); // 0 % of the time
    expect(await enabled(ROOT_TOKEN, 'no_time')).toBe(false);
    // An unknown token is never treated as anonymous (401), as on every other field.
    expect((await api(t, 'bogus').graphql('{ featureEnabled(name: "for_all") }')).body.errors[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
  });
});

describe('the GraphiQL page is the flag graphiql (default on)', () => {
  const page = (token?: string) => api(t, token).get('/-/graphiql');
  it('an admin can turn it off, on for one user only, and back to the default', async () => {
    const alice = await createUser(t, { username: 'alice_gq' });
    const on = await page();
    expect([on.status, on.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    await admin().post('/api/v4/features/graphiql').send({ value: 'false' }).expect(201);
    const off = await page();
    expect([off.status, off.body]).toEqual([404, { error: '404 Not Found' }]);
    expect((await api(t).get('/graphql').set('Accept', 'text/html')).status).toBe(404);
    await admin().post('/api/v4/features/graphiql').send({ value: 'true', user: 'alice_gq' }).expect(201);
    expect([(await page(alice.token)).status, (await page()).status]).toEqual([200, 404]);
    await admin().delete('/api/v4/features/graphiql').expect(204);
    expect((await page()).status).toBe(200);
    // The GraphQL endpoint itself is not behind the switch.
    expect((await api(t).graphql('{ featureEnabled(name: "graphiql") }')).body.data.featureEnabled).toBe(true);
  });
});
