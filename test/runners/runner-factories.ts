import crypto from 'node:crypto';
import { runnerTokenSlot } from '../../src/modules/runners/runner-token';
import { TEST_SECRETS, type TestApp } from '../support/test-app';

/** Runners, pipelines, commits and jobs written straight to the database (tokens sealed as the service does). */
let seq = 0;

async function one<T>(t: TestApp, sql: string, params: unknown[] = []): Promise<T> {
  return ((await t.orm.em.getConnection().execute(sql, params, 'all')) as T[])[0];
}

export interface TestRunner {
  id: number;
  token: string;
}

export async function createRunner(
  t: TestApp,
  opts: {
    shared?: boolean;
    active?: boolean;
    locked?: boolean;
    description?: string;
    projects?: { id: number }[];
    contactedAt?: Date | null;
    tagList?: string[];
    runUntagged?: boolean;
    accessLevel?: number;
    /** What the runner reported at registration (info[version], …). */
    version?: string | null;
    revision?: string | null;
    platform?: string | null;
    architecture?: string | null;
    /** Created by this user (runnerCreate), else registered with a registration token. */
    creator?: { id: number } | null;
    createdAt?: Date;
  } = {},
): Promise<TestRunner> {
  seq += 1;
  const token = crypto.randomBytes(15).toString('hex');
  // Sealed for its row, as the service does (runner-token.ts): the id is taken first.
  const { id } = await one<{ id: number }>(t, `select nextval(pg_get_serial_sequence('ci_runners', 'id'))::int as id`);
  const r = await one<{ id: number }>(
    t,
    `insert into ci_runners (id, token, token_digest, description, active, is_shared, locked, contacted_at, tag_list, run_untagged, access_level,
       version, revision, platform, architecture, creator_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?, ?, ?, coalesce(?, now())) returning id`,
    [
      id,
      TEST_SECRETS.seal(token, runnerTokenSlot(id)),
      TEST_SECRETS.digest(token),
      opts.description ?? `runner ${seq}`,
      opts.active ?? true,
      !!opts.shared,
      !!opts.locked,
      opts.contactedAt ?? null,
      `{${(opts.tagList ?? []).join(',')}}`,
      opts.runUntagged ?? true,
      opts.accessLevel ?? 0,
      opts.version ?? null,
      opts.revision ?? null,
      opts.platform ?? null,
      opts.architecture ?? null,
      opts.creator?.id ?? null,
      opts.createdAt ?? null,
    ],
  );
  for (const p of opts.projects ?? [])
    await t.orm.em
      .getConnection()
      .execute('insert into ci_runner_projects (runner_id, project_id) values (?, ?)', [r.id, p.id]);
  return { id: r.id, token };
}

export interface TestJob {
  id: number;
  pipelineId: number;
  sha: string;
}

/** A job with its pipeline and commit; `at` fixes created/started/finished times. */
export async function createJob(
  t: TestApp,
  opts: {
    runner: { id: number } | null;
    project: { id: number };
    status?: string;
    user?: { id: number } | null;
    name?: string;
    at?: Date;
    coverage?: number | null;
    withCommit?: boolean;
    tags?: string[];
    stage?: string;
    ref?: string;
    tag?: boolean;
    allowFailure?: boolean;
    /** GitLab's `when`; a job created in status `manual` defaults to `manual`, others to `on_success`. */
    when?: string;
    retried?: boolean;
    /** The pipeline's `source` code (GitLab's enum: push 1, web 2, trigger 3, …); null: unknown. */
    source?: number | null;
  },
): Promise<TestJob> {
  seq += 1;
  const sha = crypto.createHash('sha1').update(`commit-${seq}`).digest('hex');
  const at = opts.at ?? new Date('2026-01-02T03:04:05.000Z');
  if (opts.withCommit !== false) {
    await t.orm.em.getConnection().execute(
      `insert into ci_commits (project_id, sha, title, message, author_name, author_email, authored_date, committer_name, committer_email, committed_date, parent_ids)
       values (?, ?, ?, ?, 'Ann Author', 'ann@example.com', ?, 'Cy Committer', 'cy@example.com', ?, ?::text[])`,
      [opts.project.id, sha, `Commit ${seq}`, `Commit ${seq}\n\nBody`, at, at, `{${'a'.repeat(40)}}`],
    );
  }
  const pipeline = await one<{ id: number }>(
    t,
    `insert into ci_pipelines (project_id, sha, ref, status, user_id, source) values (?, ?, ?, 'success', ?, ?) returning id`,
    [opts.project.id, sha, opts.ref ?? 'main', opts.user?.id ?? null, opts.source === undefined ? 1 : opts.source],
  );
  const status = opts.status ?? 'success';
  const started = ['created', 'pending', 'skipped', 'manual'].includes(status) ? null : new Date(at.getTime() + 1000);
  const finished = started && status !== 'running' ? new Date(at.getTime() + 61500) : null;
  const job = await one<{ id: number }>(
    t,
    `insert into ci_builds (project_id, pipeline_id, runner_id, user_id, status, stage, name, ref, tag, allow_failure, "when", retried,
       coverage, created_at, started_at, finished_at, tag_list)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[]) returning id`,
    [
      opts.project.id,
      pipeline.id,
      opts.runner?.id ?? null,
      opts.user?.id ?? null,
      status,
      opts.stage ?? 'test',
      opts.name ?? `job ${seq}`,
      opts.ref ?? 'main',
      opts.tag ?? false,
      opts.allowFailure ?? false,
      opts.when ?? (status === 'manual' ? 'manual' : 'on_success'),
      opts.retried ?? false,
      opts.coverage ?? null,
      at,
      started,
      finished,
      `{${(opts.tags ?? []).join(',')}}`,
    ],
  );
  return { id: job.id, pipelineId: pipeline.id, sha };
}
