// The large data set of the growth bench (issue 19): bulk rows straight into the tables with
// generate_series, on top of the scale seed. Every step only adds what is missing (rows are keyed by
// deterministic `bulk-…` paths and names), so a kept --data-dir is reused and an interrupted load resumes.
//   users     bulk-user-<i> with personal namespaces
//   groups    top-level bulk-<i>, odd i public, even i private (half and half), traversal_ids set in the insert
//   projects  bulk-project-1 and -2 in every bulk group, the group's visibility, created one second apart
//   jobs      bulk runners (1,000 jobs each), a pipeline per 100 jobs on the bulk projects
// Each chunk commits on its own; PostgreSQL's backend is reniced (+10) so the load yields to other work.
const { execFileSync } = require('node:child_process');
const { Client } = require('pg');

const CHUNK = 100000;
const JOBS_PER_RUNNER = 1000;
const JOBS_PER_PIPELINE = 100;

async function count(db, sql) {
  return Number((await db.query(sql)).rows[0].n);
}

/** Inserts rows `from..to` of a generate_series-driven statement in chunks, with progress. */
async function chunked(db, log, label, from, to, sql) {
  const started = Date.now();
  for (let a = from; a <= to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK - 1);
    await db.query(sql, [a, b]);
    log(`  ${label}: ${b.toLocaleString('en-US')} / ${to.toLocaleString('en-US')} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
}

async function addUsers(db, log, target) {
  const have = await count(db, `select count(*) as n from users where username like 'bulk-user-%'`);
  if (have >= target) return;
  await chunked(db, log, 'users', have + 1, target, `
    with u as (
      insert into users (username, email, name, created_at, updated_at)
      select 'bulk-user-' || i, 'bulk-user-' || i || '@example.com', 'Bulk User ' || i, ts, ts
        from generate_series($1::int, $2::int) i, lateral (select timestamptz '2020-01-01' - i * interval '1 second' as ts) x
      on conflict do nothing returning id, username),
    n as (
      insert into namespaces (name, path, full_path, full_name, kind, owner_id)
      select username, username, username, username, 'user', id from u returning id, owner_id)
    update users set namespace_id = n.id from n where users.id = n.owner_id`);
}

async function addGroups(db, log, target) {
  const have = await count(db, `select count(*) as n from namespaces where kind = 'group' and parent_id is null and path like 'bulk-%'`);
  if (have >= target) return;
  await chunked(db, log, 'groups', have + 1, target, `
    insert into namespaces (id, name, path, full_path, full_name, kind, visibility_level, description, traversal_ids, created_at, updated_at)
    select id, 'Bulk ' || i, 'bulk-' || i, 'bulk-' || i, 'Bulk ' || i, 'group', case when i % 2 = 1 then 20 else 0 end,
           'bulk group ' || i, array[id], ts, ts
      from (select nextval('namespaces_id_seq')::int as id, i, timestamptz '2020-01-01' - i * interval '1 second' as ts
              from generate_series($1::int, $2::int) i) s
    on conflict do nothing`);
}

async function addProjects(db, log, groups) {
  const have = await count(db, `select count(*) as n from projects where path like 'bulk-project-%'`);
  if (have >= groups * 2) return;
  // group i (bulk-<i>) holds projects 2i-1 and 2i; resume at the first group without its second project
  await chunked(db, log, 'projects (groups)', Math.floor(have / 2) + 1, groups, `
    insert into projects (name, path, namespace_id, visibility_level, description, created_at, updated_at, last_activity_at)
    select 'Bulk project ' || (2 * g.i - 2 + j), 'bulk-project-' || (2 * g.i - 2 + j), n.id, n.visibility_level, 'bulk project', ts, ts, ts
      from generate_series($1::int, $2::int) g(i)
      join namespaces n on lower(n.full_path) = 'bulk-' || g.i
      cross join generate_series(1, 2) j,
      lateral (select timestamptz '2020-01-01' - (2 * g.i - 2 + j) * interval '1 second' as ts) x
    on conflict do nothing`);
}

/** bulk-member: Developer of the 50 top-level groups scale-1 … scale-50 (the same in the small and the large data set). */
async function ensureMember(dbUrl) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await db.query(`insert into users (username, email, name) values ('bulk-member', 'bulk-member@example.com', 'Bulk Member') on conflict do nothing`);
    await db.query(`
      with u as (select id from users where username = 'bulk-member' and namespace_id is null),
      n as (insert into namespaces (name, path, full_path, full_name, kind, owner_id) select 'bulk-member', 'bulk-member', 'bulk-member', 'bulk-member', 'user', id from u returning id, owner_id)
      update users set namespace_id = n.id from n where users.id = n.owner_id`);
    await db.query(`
      insert into group_members (group_id, user_id, access_level)
      select n.id, u.id, 30 from users u join namespaces n on n.kind = 'group' and n.parent_id is null and n.path = any(array(select 'scale-' || k from generate_series(1, 50) k))
       where u.username = 'bulk-member'
      on conflict do nothing`);
    return Number((await db.query(`select id from users where username = 'bulk-member'`)).rows[0].id);
  } finally {
    await db.end();
  }
}

async function addJobs(db, log, target) {
  const runners = Math.ceil(target / JOBS_PER_RUNNER);
  const haveRunners = await count(db, `select count(*) as n from ci_runners where description like 'bulk-runner-%'`);
  if (haveRunners < runners) {
    await db.query(`
      insert into ci_runners (description, token, token_digest, is_shared, active, name, created_at, updated_at)
      select 'bulk-runner-' || i, (select token from ci_runners order by id limit 1), md5('bulk-runner-' || i), true, true, 'gitlab-runner', now(), now()
        from generate_series($1::int, $2::int) i on conflict do nothing`, [haveRunners + 1, runners]);
  }
  const have = await count(db, `select count(*) as n from ci_builds where name like 'bulk-job-%'`);
  if (have >= target) return;
  const pipelines = Math.ceil(target / JOBS_PER_PIPELINE);
  const havePipelines = await count(db, `select count(*) as n from ci_pipelines where ref like 'bulk-%'`);
  if (havePipelines < pipelines) {
    // pipeline i on project bulk-project-i (the first `pipelines` bulk projects), ref bulk-<i>
    await chunked(db, log, 'pipelines', havePipelines + 1, pipelines, `
      insert into ci_pipelines (project_id, sha, ref, status, created_at, updated_at)
      select p.id, md5('bulk-' || i), 'bulk-' || i, 'success', now(), now()
        from generate_series($1::int, $2::int) i join projects p on p.path = 'bulk-project-' || i and p.namespace_id = (
          select id from namespaces where lower(full_path) = 'bulk-' || ((i + 1) / 2))`);
  }
  // job k (1-based): pipeline bulk-<1 + (k-1)/100>, runner bulk-runner-<1 + (k-1)/1000>; one statement per chunk of jobs
  const runnerIds = `(select array_agg(id order by substr(description, 13)::int) as ids from ci_runners where description like 'bulk-runner-%')`;
  const pipelineFirst = await count(db, `select min(id) as n from ci_pipelines where ref like 'bulk-%'`);
  await chunked(db, log, 'jobs', have + 1, target, `
    insert into ci_builds (project_id, pipeline_id, runner_id, status, stage, name, ref, created_at, started_at, finished_at, updated_at)
    select pl.project_id, pl.id, r.ids[1 + (k - 1) / ${JOBS_PER_RUNNER}], (array['success','failed','canceled','skipped'])[1 + k % 4], 'test',
           'bulk-job-' || k, 'main', pl.created_at, pl.created_at, pl.created_at + interval '30 seconds', pl.created_at
      from generate_series($1::int, $2::int) k, ${runnerIds} r(ids), ci_pipelines pl
     where pl.id = ${pipelineFirst} + (k - 1) / ${JOBS_PER_PIPELINE}`);
}

/** Adds the large data set (idempotent) and ANALYZEs; returns the row counts. */
async function addLarge(dbUrl, opts, log) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const pid = (await db.query('select pg_backend_pid() as pid')).rows[0].pid;
    try {
      execFileSync('renice', ['-n', '10', '-p', String(pid)], { stdio: 'ignore' });
    } catch {}
    const started = Date.now();
    log(`large: ${opts.users} users, ${opts.groups} groups, ${opts.groups * 2} projects, ${opts.jobs} jobs (only what is missing)…`);
    await addUsers(db, log, opts.users);
    await addGroups(db, log, opts.groups);
    await addProjects(db, log, opts.groups);
    if (opts.jobs > 0) await addJobs(db, log, opts.jobs);
    await db.query('analyze');
    log(`large: loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return {
      groups: await count(db, `select count(*) as n from namespaces where kind = 'group'`),
      projects: await count(db, `select count(*) as n from projects`),
      users: await count(db, `select count(*) as n from users`),
      jobs: await count(db, `select count(*) as n from ci_builds`),
    };
  } finally {
    await db.end();
  }
}

module.exports = { addLarge, ensureMember };
