import { seedDemo } from '../../src/modules/demo/demo-data.seed';
import { seedBroadcastMessages } from '../../src/modules/broadcast-messages/broadcast-message.seed';
import { seedFeatures } from '../../src/modules/features/feature.seed';
import { FEATURES_CACHE_KEY } from '../../src/modules/features/feature.service';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();
beforeEach(() => t.cache.invalidate(t.orm.em.fork(), FEATURES_CACHE_KEY));

describe('npm run seed: broadcast messages and feature flags', () => {
  it('writes past, current and future messages and flags in every state, idempotently', async () => {
    const log: string[] = [];
    await seedDemo(t.seedEnv((m) => log.push(m)));
    for (let i = 0; i < 2; i += 1) {
      await seedBroadcastMessages(t.seedEnv((m) => log.push(m)));
      await seedFeatures(t.seedEnv((m) => log.push(m)));
    }
    expect(log.filter((l) => /already present/.test(l))).toEqual([
      'broadcast messages already present: skipped',
      'feature flags already present: skipped',
    ]);
    const messages = (await api(t, ROOT_TOKEN).get('/api/v4/broadcast_messages')).body as {
      message: string;
      active: boolean;
    }[];
    expect(messages.map((m) => [m.message, m.active])).toEqual([
      ['Registry read-only window', false],
      ['Scheduled maintenance this weekend', true],
      ['Upgrade to 10.3 finished', false],
    ]);
    const alice = (await api(t, ROOT_TOKEN).get('/api/v4/users?username=alice')).body[0];
    expect((await api(t, ROOT_TOKEN).get('/api/v4/features')).body).toEqual([
      { name: 'new_navigation', state: 'on', gates: [{ key: 'boolean', value: true }] },
      { name: 'legacy_importer', state: 'off', gates: [{ key: 'boolean', value: false }] },
      {
        name: 'async_search',
        state: 'conditional',
        gates: [
          { key: 'boolean', value: false },
          { key: 'percentage_of_time', value: 25 },
        ],
      },
      {
        name: 'fast_diffs',
        state: 'conditional',
        gates: [
          { key: 'boolean', value: false },
          { key: 'percentage_of_actors', value: 50 },
        ],
      },
      {
        name: 'profiling_bar',
        state: 'conditional',
        gates: [
          { key: 'boolean', value: false },
          { key: 'actors', value: [`User:${alice.id}`] },
          { key: 'groups', value: ['perf_team'] },
        ],
      },
    ]);
  });
});
