import crypto from 'node:crypto';
import { reserveRowIds } from '../../core/crypto/reserve-row-id';
import { ProgressBar } from '../../core/db/seed/progress';
import type { SeedEnv } from '../../core/module/app-module';
import { User } from '../users';
import { seedCiScaleUnit } from '../ci';
import { runnerTokenSlot } from './runner-token';

const RUNNERS_PER_UNIT = 10;

/**
 * `--scale N` benchmark runners and jobs, per unit: 10 runners (1 shared, 9 specific, each enabled in
 * 10 of the unit's projects) and 10,000 jobs (1,000 pipelines with their commits), in bulk SQL.
 * Idempotent: a unit whose runners exist (`scale-runner-<u>-1`) is skipped.
 */
export async function seedRunnersScale(env: SeedEnv): Promise<void> {
  if (env.scale <= 0) return;
  const root = await env.em.findOneOrFail(User, { username: 'root' });
  const ctx = env.as(root);
  const conn = ctx.em.getConnection();
  const units = Math.floor(env.scale);
  const bar = new ProgressBar('scale jobs', units);
  bar.update(0);
  for (let u = 1; u <= units; u += 1) {
    const exists = (await conn.execute(
      `select 1 from ci_runners where description = ?`,
      [`scale-runner-${u}-1`],
      'all',
    )) as unknown[];
    if (exists.length === 0) {
      const tokens = Array.from({ length: RUNNERS_PER_UNIT }, () => crypto.randomBytes(15).toString('hex'));
      await ctx.em.transactional(async (tx) => {
        const q = <T>(sql: string, params: unknown[] = []) =>
          tx.getConnection().execute(sql, params, 'all') as Promise<T[]>;
        // Tokens are sealed for their rows: the ids are taken first (core/crypto/reserve-row-id.ts).
        const ids = await reserveRowIds(tx, 'ci_runners', tokens.length);
        const rows = await q<{ id: number }>(
          `insert into ci_runners (id, token, token_digest, description, is_shared, contacted_at, tag_list, version, platform, architecture)
           select t.id, t.sealed, t.digest, 'scale-runner-' || ?::int || '-' || t.k, t.k = 1, case when t.k % 3 = 0 then now() else null end,
                  '{scale}', '10.3.0', 'linux', 'amd64'
             from unnest(?::int[], ?::text[], ?::text[]) with ordinality as t(id, sealed, digest, k) order by t.k returning id`,
          [
            u,
            `{${ids.join(',')}}`,
            `{${tokens.map((x, i) => ctx.secrets.seal(x, runnerTokenSlot(ids[i]))).join(',')}}`,
            `{${tokens.map((x) => ctx.secrets.digest(x)).join(',')}}`,
          ],
        );
        await seedCiScaleUnit(
          q,
          u,
          rows.map((r) => Number(r.id)),
        );
      });
    }
    bar.update(u);
  }
  await conn.execute(
    'analyze ci_runners; analyze ci_runner_projects; analyze ci_pipelines; analyze ci_commits; analyze ci_builds',
    [],
    'run',
  );
}
