import type { SeedEnv } from '../../core/module/app-module';
import { demoWebsite } from '../demo';
import { environmentService } from './environment.service';

/** Demo environments on acme/web/website (both states), through the service; idempotent. */
export async function seedEnvironments(env: SeedEnv): Promise<void> {
  const site = await demoWebsite(env, 'environments', 'environments');
  if (!site) return;
  const { ctx, projectId: id } = site;
  const create = (input: { name: string; externalUrl?: string }) =>
    environmentService.create(ctx, { projectId: id, input });
  await create({ name: 'production', externalUrl: 'https://www.acme.test' });
  const staging = await create({ name: 'staging', externalUrl: 'https://staging.acme.test' });
  await create({ name: 'review/fix-login' });
  await environmentService.stop(ctx, { projectId: id, environmentId: staging.id });
  env.log('environments: production, review/fix-login (available), staging (stopped) on acme/web/website');
}
