type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

const PIPELINES_PER_UNIT = 1000;
const JOBS_PER_PIPELINE = 10;

/**
 * One scale unit's CI data in bulk SQL: the unit's specific runners enabled in 10 projects each
 * (projects of the unit's top-level groups `scale-<10u-9>` … `scale-<10u>`), 1,000 pipelines spread
 * over the runners, a commit each, and 10 jobs per pipeline cycling through every job status.
 * `runnerIds[0]` is the unit's shared runner.
 */
export async function seedCiScaleUnit(q: Query, unit: number, runnerIds: number[]): Promise<void> {
  const tops = Array.from({ length: 10 }, (_, i) => `scale-${unit * 10 - 9 + i}`);
  const projects = (
    await q<{ id: number }>(
      `select p.id from projects p join namespaces n on n.id = p.namespace_id join namespaces top on top.id = n.traversal_ids[1]
      where top.path = any(?::text[]) order by p.id limit ?`,
      [`{${tops.join(',')}}`, (runnerIds.length - 1) * 10],
    )
  ).map((r) => Number(r.id));
  if (projects.length === 0) return;
  const users = (
    await q<{ id: number }>(`select id from users where username like 'scale-user-%' order by id limit 100 offset ?`, [
      (unit - 1) * 100,
    ])
  ).map((r) => Number(r.id));
  // runner k (k >= 1) gets projects[(k-1)*10 .. k*10-1]
  await q(
    `insert into ci_runner_projects (runner_id, project_id)
     select (?::int[])[k + 1], (?::int[])[(k - 1) * 10 + j] from generate_series(1, ?) k cross join generate_series(1, 10) j
      where (k - 1) * 10 + j <= ? on conflict do nothing`,
    [`{${runnerIds.join(',')}}`, `{${projects.join(',')}}`, runnerIds.length - 1, projects.length],
  );
  // pipeline i runs on runner r = i % R (0: the shared one, any project; else one of runner r's 10 projects); the ref carries r
  const R = runnerIds.length;
  await q(
    `insert into ci_pipelines (project_id, sha, ref, status, user_id, source, created_at, updated_at)
     select (?::int[])[case when x.r = 0 or x.r * 10 > ?::int then 1 + i % ?::int else (x.r - 1) * 10 + 1 + (i / ?::int) % 10 end],
            md5('scale-' || ?::int || '-' || i) || substr(md5(i::text), 1, 8), 'scale-' || ?::int || '-' || x.r,
            (array['success','failed','running','canceled'])[1 + i % 4], (?::int[])[1 + i % ?::int],
            (array[1, 1, 1, 2, 3, 4, 5])[1 + i % 7], now() - ((? - i) || ' minutes')::interval, now()
       from generate_series(1, ?) i, lateral (select i % ?::int as r) x`,
    [
      `{${projects.join(',')}}`,
      projects.length,
      projects.length,
      R,
      unit,
      unit,
      `{${users.join(',') || 'NULL'}}`,
      Math.max(1, users.length),
      PIPELINES_PER_UNIT,
      PIPELINES_PER_UNIT,
      R,
    ],
  );
  await q(
    `insert into ci_commits (project_id, sha, title, message, author_name, author_email, authored_date, committer_name, committer_email, committed_date, parent_ids)
     select pl.project_id, pl.sha, 'Scale commit ' || pl.id, 'Scale commit ' || pl.id || E'\n\nBenchmark data.', 'Scale Author', 'author@example.com',
            pl.created_at, 'Scale Committer', 'committer@example.com', pl.created_at, array[md5(pl.sha) || substr(pl.sha, 1, 8)]
       from ci_pipelines pl where pl.ref like ? on conflict do nothing`,
    [`scale-${unit}-%`],
  );
  const statuses = "(array['created','pending','running','success','failed','canceled','skipped','manual'])";
  await q(
    `insert into ci_builds (project_id, pipeline_id, runner_id, user_id, status, stage, name, ref, tag, allow_failure, "when", coverage, created_at, started_at, finished_at)
     select pl.project_id, pl.id, (?::int[])[1 + split_part(pl.ref, '-', 3)::int], pl.user_id, ${statuses}[1 + (pl.id + j) % 8],
            (array['build','test','deploy'])[1 + j % 3], 'job-' || j, 'main', false, j = 10,
            case when (pl.id + j) % 8 = 7 then 'manual' else 'on_success' end,
            case when j % 4 = 0 then (pl.id % 100)::float else null end,
            pl.created_at,
            case when (pl.id + j) % 8 in (2, 3, 4, 5) then pl.created_at + interval '10 seconds' end,
            case when (pl.id + j) % 8 in (3, 4, 5) then pl.created_at + ((10 + (pl.id + j) % 300) || ' seconds')::interval end
       from ci_pipelines pl cross join generate_series(1, ?) j where pl.ref like ?`,
    [`{${runnerIds.join(',')}}`, JOBS_PER_PIPELINE, `scale-${unit}-%`],
  );
}
