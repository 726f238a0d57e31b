import type { SeedEnv } from '../../core/module/app-module';
import { sqlRows } from '../../core/db/sql';
import { User } from '../users/user.entity';
import { environmentService } from './environment.service';

/** Demo environments on acme/web/website (both states), through the service; idempotent. */
export async function seedEnvironments(env: SeedEnv): Promise<void> {
  const alice = await env.em.findOne(User, { username: 'alice' });
  const [project] = await sqlRows<{ id: number }>(
    env.em,
    `select p.id from projects p join namespaces n on n.id = p.namespace_id where n.full_path = 'acme/web' and p.path = 'website'`,
  );
  if (!alice || !project) return env.log('environments: demo project acme/web/website missing: skipped');
  const [existing] = await sqlRows<{ n: string }>(env.em, 'select count(*) as n from environments where project_id = ?', [project.id]);
  if (Number(existing.n) > 0) return env.log('environments: already present: skipped');
  const ctx = env.as(alice);
  const id = String(project.id);
  await environmentService.create(ctx, id, { name: 'production', externalUrl: 'https://www.acme.test' });
  const staging = await environmentService.create(ctx, id, { name: 'staging', externalUrl: 'https://staging.acme.test' });
  await environmentService.create(ctx, id, { name: 'review/fix-login' });
  await environmentService.stop(ctx, id, staging.id);
  env.log('environments: production, review/fix-login (available), staging (stopped) on acme/web/website');
}
