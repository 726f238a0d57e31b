import crypto from 'node:crypto';
import type { RequestCtx } from '../../core/context/request-ctx';
import { reserveRowId } from '../../core/crypto/reserve-row-id';
import { sqlRows } from '../../core/db/sql';
import type { SeedEnv } from '../../core/module/app-module';
import { User } from '../users';
import { Runner, RunnerProject } from './runner.entity';
import { runnerTokenSlot } from './runner-token';

interface DemoRunner {
  description: string;
  shared?: boolean;
  active?: boolean;
  locked?: boolean;
  accessLevel?: number;
  tags?: string[];
  /** Minutes since the last contact; undefined: never contacted. */
  contactedMinutesAgo?: number;
  /** Full paths of the projects it is enabled in. */
  projects?: string[];
}

/** Shared, specific, locked, paused, one per access level, some online (spec 2.1). */
const DEMO_RUNNERS: DemoRunner[] = [
  { description: 'shared-docker', shared: true, tags: ['docker', 'linux'], contactedMinutesAgo: 5 },
  { description: 'shared-paused', shared: true, active: false, contactedMinutesAgo: 600 },
  { description: 'website-runner', projects: ['acme/web/website'], contactedMinutesAgo: 1 },
  {
    description: 'platform-locked',
    locked: true,
    projects: ['acme/platform/api', 'acme/platform/legacy'],
    tags: ['ruby'],
    contactedMinutesAgo: 90,
  },
  {
    description: 'infra-protected',
    accessLevel: 1,
    projects: ['acme/platform/infra/terraform'],
    contactedMinutesAgo: 20,
  },
  { description: 'dotfiles-paused', active: false, projects: ['alice/dotfiles'] },
];

async function projectIdsByPath(ctx: RequestCtx, paths: string[]): Promise<number[]> {
  if (paths.length === 0) return [];
  const rows = await sqlRows<{ id: number }>(
    ctx.em,
    `select p.id from projects p join namespaces n on n.id = p.namespace_id where lower(n.full_path || '/' || p.path) = any(?::text[]) order by p.id`,
    [`{${paths.join(',')}}`],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Demo runners (after the demo projects): tokens sealed like registered ones. Idempotent: does
 * nothing when a runner named `shared-docker` exists. Jobs come from the ci module's seed step.
 */
export async function seedRunnersDemo(env: SeedEnv): Promise<void> {
  const root = await env.em.findOneOrFail(User, { username: 'root' });
  const ctx = env.as(root);
  if (await ctx.em.findOne(Runner, { description: 'shared-docker' })) {
    env.log('demo runners already present: skipped');
    return;
  }
  const now = ctx.clock.now();
  for (const d of DEMO_RUNNERS) {
    const token = crypto.randomBytes(15).toString('hex');
    const id = await reserveRowId(ctx.em, 'ci_runners');
    const runner = ctx.em.create(Runner, {
      id,
      token: ctx.secrets.seal(token, runnerTokenSlot(id)),
      tokenDigest: ctx.secrets.digest(token),
      description: d.description,
      isShared: !!d.shared,
      active: d.active ?? true,
      locked: !!d.locked,
      accessLevel: d.accessLevel ?? 0,
      tagList: d.tags ?? [],
      runUntagged: true,
      name: 'gitlab-runner',
      version: '10.3.0',
      revision: '5cf5e19a',
      platform: 'linux',
      architecture: 'amd64',
      contactedAt:
        d.contactedMinutesAgo === undefined ? null : new Date(now.getTime() - d.contactedMinutesAgo * 60_000),
      createdAt: now,
      updatedAt: now,
    });
    await ctx.em.persistAndFlush(runner);
    for (const projectId of await projectIdsByPath(ctx, d.projects ?? []))
      ctx.em.persist(ctx.em.create(RunnerProject, { runnerId: runner.id, projectId, createdAt: now }));
    await ctx.em.flush();
  }
  env.log(`demo runners: ${DEMO_RUNNERS.length} (2 shared, 4 specific; locked, paused, ref_protected, online ones)`);
}
