import crypto from 'node:crypto';
import { sqlRows } from '../../core/db/sql';
import type { SeedEnv } from '../../core/module/app-module';
import { JOB_STATUS_REST_VALUES } from './job.type';

const STARTED = new Set(['running', 'success', 'failed', 'canceled']);
const FINISHED = new Set(['success', 'failed', 'canceled']);

/**
 * Demo pipelines and jobs: for every demo runner one pipeline (with its commit) in one of its projects
 * (shared runners: the Website project) and a job in every GitLab job status. Idempotent: skipped when
 * demo jobs exist.
 */
export async function seedCiDemo(env: SeedEnv): Promise<void> {
  const { em, log } = env;
  const demoJobs = `select 1 from ci_builds b join ci_runners r on r.id = b.runner_id where r.description not like 'scale-runner-%' limit 1`;
  if ((await sqlRows(em, demoJobs)).length > 0) {
    log('demo jobs already present: skipped');
    return;
  }
  const runners = await sqlRows<{ id: number; project_id: number | null; description: string }>(
    em,
    `select r.id, r.description, coalesce((select min(rp.project_id) from ci_runner_projects rp where rp.runner_id = r.id),
            (select p.id from projects p join namespaces n on n.id = p.namespace_id where n.full_path = 'acme/web' and p.path = 'website')) as project_id
       from ci_runners r where r.description not like 'scale-runner-%' order by r.id`,
  );
  const users = await sqlRows<{ id: number }>(
    em,
    `select id from users where username in ('alice', 'bob') order by id`,
  );
  let n = 0;
  for (const r of runners) {
    if (r.project_id === null) continue;
    const sha = crypto.createHash('sha1').update(`demo-${r.id}`).digest('hex');
    const at = new Date(Date.now() - (runners.length - n) * 3_600_000);
    const user = users.length ? users[n % users.length].id : null;
    n += 1;
    await sqlRows(
      em,
      `insert into ci_commits (project_id, sha, title, message, author_name, author_email, authored_date, committer_name, committer_email, committed_date, parent_ids)
       values (?, ?, ?, ?, 'Alice Owner', 'alice@example.com', ?, 'Alice Owner', 'alice@example.com', ?, ?::text[]) on conflict do nothing`,
      [
        r.project_id,
        sha,
        `Update CI for ${r.description}`,
        `Update CI for ${r.description}\n\nDemo commit.`,
        at,
        at,
        `{${crypto.createHash('sha1').update(sha).digest('hex')}}`,
      ],
    );
    const [pipeline] = await sqlRows<{ id: number }>(
      em,
      `insert into ci_pipelines (project_id, sha, ref, status, user_id, source, created_at, updated_at) values (?, ?, 'master', 'running', ?, 1, ?, ?) returning id`,
      [r.project_id, sha, user, at, at],
    );
    for (const [i, status] of JOB_STATUS_REST_VALUES.entries()) {
      const started = STARTED.has(status) ? new Date(at.getTime() + 5_000) : null;
      const finished = FINISHED.has(status) ? new Date(at.getTime() + 5_000 + (30 + i * 17) * 1000) : null;
      await sqlRows(
        em,
        `insert into ci_builds (project_id, pipeline_id, runner_id, user_id, status, stage, name, ref, tag, allow_failure, "when", coverage, created_at, started_at, finished_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, 'master', false, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r.project_id,
          pipeline.id,
          r.id,
          user,
          status,
          i < 3 ? 'build' : 'test',
          `${status}-job`,
          status === 'failed' && n % 2 === 0, // every other demo pipeline's failure is allowed
          status === 'manual' ? 'manual' : 'on_success',
          status === 'success' ? 92.5 : null,
          at,
          started,
          finished,
          at,
        ],
      );
    }
  }
  log(`demo jobs: ${n} pipelines with a job in each of the ${JOB_STATUS_REST_VALUES.length} statuses`);
}
