import type { SeedEnv } from '../../core/module/app-module';
import { User } from '../users';
import { featureService } from './feature.service';

/** Demo flags in every state and gate kind (idempotent: skipped when any feature exists). */
export async function seedFeatures(env: SeedEnv): Promise<void> {
  const { em, log } = env;
  if ((await em.getConnection().execute('select 1 from features limit 1')).length > 0) {
    log('feature flags already present: skipped');
    return;
  }
  const admin = env.as(await em.findOneOrFail(User, { username: 'root' }));
  const alice = await em.findOne(User, { username: 'alice' });
  await featureService.set(admin, 'new_navigation', { value: 'true' }); // on
  await featureService.set(admin, 'legacy_importer', { value: 'false' }); // off
  await featureService.set(admin, 'async_search', { value: '25' }); // conditional: 25 % of the time
  await featureService.set(admin, 'fast_diffs', { value: '50', key: 'percentage_of_actors' }); // conditional: half of the users
  await featureService.set(admin, 'profiling_bar', {
    value: 'true',
    featureGroup: 'perf_team',
    user: alice ? 'alice' : undefined,
  }); // conditional: group (+ actor)
  log('feature flags: 5 (on, off, percentage of time, percentage of actors, group and actor)');
}
