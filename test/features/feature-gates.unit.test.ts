import {
  actorInPercentage,
  evaluateFeature,
  gatesOf,
  gatesOpen,
  stateOf,
  type GateValues,
} from '../../src/modules/features/feature-gates';
import { parseFeatureGroups, inFeatureGroup } from '../../src/modules/features/feature-groups';
import { checkFeatureName, parseGateValue, rubyToI } from '../../src/modules/features/feature-value';

const f = (over: Partial<GateValues> = {}): GateValues => ({
  name: 'flag',
  booleanValue: false,
  actors: [],
  groups: [],
  percentageOfActors: 0,
  percentageOfTime: 0,
  ...over,
});

describe('feature state and gate list (spec 2.9, 3; GitLab Entities::Feature on Flipper)', () => {
  it.each([
    ['nothing set', {}, 'off', [{ key: 'boolean', value: false }]],
    ['boolean true', { booleanValue: true }, 'on', [{ key: 'boolean', value: true }]],
    [
      'percentage of time 30',
      { percentageOfTime: 30 },
      'conditional',
      [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 30 },
      ],
    ],
    [
      'percentage of time 100',
      { percentageOfTime: 100 },
      'on',
      [
        { key: 'boolean', value: false },
        { key: 'percentage_of_time', value: 100 },
      ],
    ],
    [
      'percentage of actors 100 (Flipper 0.11: still conditional)',
      { percentageOfActors: 100 },
      'conditional',
      [
        { key: 'boolean', value: false },
        { key: 'percentage_of_actors', value: 100 },
      ],
    ],
    [
      'an actor',
      { actors: ['User:5'] },
      'conditional',
      [
        { key: 'boolean', value: false },
        { key: 'actors', value: ['User:5'] },
      ],
    ],
    [
      'a group',
      { groups: ['perf_team'] },
      'conditional',
      [
        { key: 'boolean', value: false },
        { key: 'groups', value: ['perf_team'] },
      ],
    ],
    [
      'boolean true wins over other gates',
      { booleanValue: true, actors: ['User:1'] },
      'on',
      [
        { key: 'boolean', value: true },
        { key: 'actors', value: ['User:1'] },
      ],
    ],
    [
      'every gate, in Flipper order',
      { actors: ['User:2', 'User:1'], groups: ['perf_team'], percentageOfActors: 10, percentageOfTime: 20 },
      'conditional',
      [
        { key: 'boolean', value: false },
        { key: 'actors', value: ['User:2', 'User:1'] },
        { key: 'percentage_of_actors', value: 10 },
        { key: 'percentage_of_time', value: 20 },
        { key: 'groups', value: ['perf_team'] },
      ],
    ],
  ])('%s', (_label, values, state, gates) => {
    expect(stateOf(f(values))).toBe(state);
    expect(gatesOf(f(values))).toEqual(gates);
  });
});

describe('isFeatureEnabled evaluation (one function: evaluateFeature)', () => {
  const alice = { id: 1, username: 'alice' };
  const bob = { id: 2, username: 'bob' };
  const env = (user: typeof alice | null, random = () => 0.5) => ({
    user,
    random,
    inGroup: (g: string, u: { username: string }) => g === 'beta' && u.username === 'alice',
  });

  it.each([
    ['unset flag, default off', undefined, false, alice, false],
    ['unset flag, default on (GitLab default_enabled)', undefined, true, alice, true],
    ['persisted flag ignores the default: off', f(), true, alice, false],
    ['boolean on, anonymous too', f({ booleanValue: true }), false, null, true],
    ['actor listed', f({ actors: ['User:1'] }), false, alice, true],
    ['actor not listed', f({ actors: ['User:1'] }), false, bob, false],
    ['actor gate, anonymous', f({ actors: ['User:1'] }), false, null, false],
    ['group member', f({ groups: ['beta'] }), false, alice, true],
    ['not a group member', f({ groups: ['beta'] }), false, bob, false],
    ['group gate, anonymous', f({ groups: ['beta'] }), false, null, false],
    ['percentage of actors 100', f({ percentageOfActors: 100 }), false, bob, true],
    ['percentage of actors, anonymous', f({ percentageOfActors: 100 }), false, null, false],
  ])('%s', (_label, values, defaultOn, user, expected) => {
    expect(evaluateFeature(values, defaultOn, env(user))).toBe(expected);
  });

  it('percentage of time draws per call: open when the draw is below the percentage', () => {
    const flag = f({ percentageOfTime: 30 });
    expect(
      gatesOpen(
        flag,
        env(null, () => 0.29),
      ),
    ).toBe(true);
    expect(
      gatesOpen(
        flag,
        env(null, () => 0.3),
      ),
    ).toBe(false);
    expect(
      gatesOpen(
        f({ percentageOfTime: 0 }),
        env(null, () => 0),
      ),
    ).toBe(false);
  });

  it('percentage of actors is a stable hash of flag name and user id, monotonic in the percentage', () => {
    const users = Array.from({ length: 1000 }, (_v, i) => ({ id: i + 1 }));
    const at = (p: number) => users.filter((u) => actorInPercentage('fast_diffs', u, p));
    const quarter = at(25);
    expect(quarter.length).toBeGreaterThan(180);
    expect(quarter.length).toBeLessThan(320);
    expect(at(25)).toEqual(quarter); // stable
    const half = new Set(at(50).map((u) => u.id));
    expect(quarter.every((u) => half.has(u.id))).toBe(true); // raising the percentage only adds users
    expect(at(0)).toEqual([]);
    expect(at(100)).toHaveLength(1000);
    // Another flag picks another slice of users.
    expect(users.filter((u) => actorInPercentage('other_flag', u, 25)).map((u) => u.id)).not.toEqual(
      quarter.map((u) => u.id),
    );
  });
});

describe('POST /features value semantics (GitLab 10.3 gate_value)', () => {
  it.each([
    ['true', { kind: 'enable' }],
    ['false', { kind: 'disable' }],
    ['0', { kind: 'disable' }],
    ['50', { kind: 'percentage', percentage: 50 }],
    ['1', { kind: 'percentage', percentage: 1 }],
    ['100', { kind: 'percentage', percentage: 100 }],
    ['abc', { kind: 'percentage', percentage: 0 }],
    ['TRUE', { kind: 'percentage', percentage: 0 }],
    ['12x', { kind: 'percentage', percentage: 12 }],
    ['1.5', { kind: 'percentage', percentage: 1 }],
    [' 7', { kind: 'percentage', percentage: 7 }],
  ])('%j', (value, change) => {
    expect(parseGateValue(value)).toEqual(change);
  });

  it('rejects percentages outside 0–100 (GitLab raised a 500) and reads numbers like Ruby', () => {
    for (const v of ['101', '150', '-5', '99999999999999999999']) {
      expect(() => parseGateValue(v)).toThrow('value must be true, false or a percentage between 0 and 100');
    }
    expect([rubyToI('1_000'), rubyToI('+5'), rubyToI('-3x'), rubyToI(''), rubyToI('x5')]).toEqual([1000, 5, -3, 0, 0]);
  });

  it('accepts names of letters, digits and underscores only', () => {
    for (const ok of ['graphiql', 'New_Feature_2', 'x'.repeat(255)]) expect(() => checkFeatureName(ok)).not.toThrow();
    for (const bad of ['', 'with-dash', 'dot.name', 'a b', 'slash/name', 'x'.repeat(256), 'ümlaut'])
      expect(() => checkFeatureName(bad)).toThrow('name is invalid');
  });
});

describe('feature groups (FEATURE_GROUPS)', () => {
  it('always registers perf_team and reads extra groups with their members', () => {
    const groups = parseFeatureGroups(' beta_testers = Alice, bob ; qa ; perf_team=carol');
    expect([...groups.keys()]).toEqual(['perf_team', 'beta_testers', 'qa']);
    expect(inFeatureGroup(groups, 'beta_testers', { username: 'alice' })).toBe(true);
    expect(inFeatureGroup(groups, 'perf_team', { username: 'carol' })).toBe(true);
    expect(inFeatureGroup(groups, 'qa', { username: 'alice' })).toBe(false);
    expect(inFeatureGroup(groups, 'unknown', { username: 'alice' })).toBe(false);
    expect([...parseFeatureGroups(undefined).keys()]).toEqual(['perf_team']);
    expect(() => parseFeatureGroups('bad-name=alice')).toThrow('FEATURE_GROUPS: "bad-name" is not a valid group name');
  });
});
