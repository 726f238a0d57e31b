import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import type { SeedEnv } from '../../core/module/app-module';
import { User } from '../users';

/**
 * The demo project acme/web/website acting as its owner alice, for the area seeds that decorate it
 * (pages domains, environments). Null, with a log line, when the demo data is missing or when
 * `table` already holds rows for the project (the seeds are idempotent).
 */
export async function demoWebsite(
  env: SeedEnv,
  what: string,
  table: string,
): Promise<{ ctx: RequestCtx; projectId: string } | null> {
  const alice = await env.em.findOne(User, { username: 'alice' });
  const [project] = await sqlRows<{ id: number }>(
    env.em,
    `select p.id from projects p join namespaces n on n.id = p.namespace_id where n.full_path = 'acme/web' and p.path = 'website'`,
  );
  if (!alice || !project) {
    env.log(`${what}: demo project acme/web/website missing: skipped`);
    return null;
  }
  const [existing] = await sqlRows<{ n: string }>(env.em, `select count(*) as n from ${table} where project_id = ?`, [
    project.id,
  ]);
  if (Number(existing.n) > 0) {
    env.log(`${what}: already present: skipped`);
    return null;
  }
  return { ctx: env.as(alice), projectId: String(project.id) };
}
