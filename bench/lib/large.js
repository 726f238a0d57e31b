// The large data set of the growth bench: bulk rows straight into the tables with
// generate_series, on top of the scale seed (docs/growth.md, "Data set").
//   users     bulk-user-<i> with personal namespaces
//   groups    top-level bulk-<i>, odd i public, even i private (half and half), traversal_ids set in the insert
//   projects  bulk-project-1 and -2 in every bulk group, the group's visibility, created one second apart
//   jobs      bulk runners (1,000 jobs each), a pipeline per 100 jobs on the bulk projects
// How it stays fast (1M groups, 2M projects, 10M jobs in about 5 minutes on 2 cores):
// - set-up only, as the PostgreSQL superuser: `session_replication_role = replica` skips the per-row
//   foreign-key triggers (the rows are consistent by construction), `synchronous_commit = off`,
//   max_wal_size raised for the load (fewer checkpoints) and reset afterwards;
// - a table's non-unique indexes are dropped before its rows go in and rebuilt afterwards (one sort
//   per index instead of 10M index insertions; the trigram GINs are the dearest); unique ones stay,
//   they keep the load idempotent;
// - chunks of one statement each run on two connections at once, one per core;
// - every chunk commits with a marker row (schema bench_load), so an interrupted load resumes where it
//   stopped and a kept --data-dir is reused; dropped index definitions are kept there until rebuilt;
// - then VACUUM ANALYZE, so the visibility map and statistics are a real deployment's
//   (index-only scans, the planner's row estimates).
const { Client } = require('pg');

const CONNECTIONS = 2;
const JOBS_PER_RUNNER = 1000;
const JOBS_PER_PIPELINE = 100;

async function connect(url) {
  const db = new Client({ connectionString: url });
  await db.connect();
  await db.query(`set session_replication_role = replica; set synchronous_commit = off;
    set maintenance_work_mem = '512MB'; set work_mem = '64MB'; set max_parallel_maintenance_workers = 0`);
  return db;
}

async function count(db, sql, params) {
  return Number((await db.query(sql, params)).rows[0].n);
}

const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

/** Runs `fn` over `items` on every connection of the pool at once (a shared queue). */
async function onPool(pool, items, fn) {
  let next = 0;
  await Promise.all(
    pool.map(async (db) => {
      while (next < items.length) await fn(db, items[(next += 1) - 1]);
    }),
  );
}

/**
 * Rows `from..to` of a generate_series-driven statement (`$1`, `$2`: a chunk's bounds), in chunks of
 * `size` over the pool; each chunk commits with its marker, so chunks already in are skipped.
 */
async function chunked(pool, log, step, from, to, size, sql) {
  const done = new Set(
    (await pool[0].query('select a from bench_load.chunks where step = $1', [step])).rows.map((r) => r.a),
  );
  const todo = [];
  for (let a = from; a <= to; a += size) if (!done.has(a)) todo.push([a, Math.min(to, a + size - 1)]);
  if (!todo.length) return false;
  const t0 = Date.now();
  let n = 0;
  await onPool(pool, todo, async (db, [a, b]) => {
    await db.query('begin');
    await db.query(sql, [a, b]);
    await db.query('insert into bench_load.chunks (step, a) values ($1, $2)', [step, a]);
    await db.query('commit');
    n += 1;
    if (n % Math.max(1, Math.round(todo.length / 5)) === 0 || n === todo.length)
      log(`  ${step}: ${n} / ${todo.length} chunks (${secs(t0)})`);
  });
  return true;
}

/** Records and drops `table`'s non-unique indexes (they are rebuilt by `restoreIndexes`). */
async function dropIndexes(db, table) {
  await db.query(
    `insert into bench_load.indexes (tbl, name, def)
    select $1::text, c.relname, pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = $1::text::regclass and not i.indisunique and not i.indisprimary
    on conflict do nothing`,
    [table],
  );
  const { rows } = await db.query(
    `select name from bench_load.indexes where tbl = $1 and to_regclass(name) is not null`,
    [table],
  );
  for (const r of rows) await db.query(`drop index ${db.escapeIdentifier(r.name)}`);
}

/** Rebuilds the recorded indexes of `table` that are missing, over the pool. */
async function restoreIndexes(pool, log, table) {
  const { rows } = await pool[0].query(`select name, def from bench_load.indexes where tbl = $1`, [table]);
  if (!rows.length) return;
  const t0 = Date.now();
  await onPool(pool, rows, async (db, r) => {
    if ((await db.query('select to_regclass($1) as r', [r.name])).rows[0].r === null) await db.query(r.def);
    await db.query('delete from bench_load.indexes where name = $1', [r.name]);
  });
  log(`  ${table}: ${rows.length} indexes rebuilt (${secs(t0)})`);
}

/** One table's bulk step: its indexes dropped, the chunks loaded, the indexes rebuilt. */
async function load(pool, log, table, step, from, to, size, sql) {
  const { rows } = await pool[0].query('select count(*) as n from bench_load.chunks where step = $1', [step]);
  if (Number(rows[0].n) < Math.ceil((to - from + 1) / size)) await dropIndexes(pool[0], table);
  await chunked(pool, log, step, from, to, size, sql);
  await restoreIndexes(pool, log, table);
}

// Users and their namespaces take their ids from the sequences first, so every row is written once: an
// insert followed by `update users set namespace_id` left two versions of each row in the users' GIN
// indexes, which stayed three to four times their size after VACUUM (a user search then read 100
// index pages where a deployment's index needs 35; docs/growth.md, "Search").
const addUsers = (pool, log, target) =>
  load(
    pool,
    log,
    'users',
    'users',
    1,
    target,
    10000,
    `
    with s as (
      select nextval('users_id_seq')::int as uid, nextval('namespaces_id_seq')::int as nid, 'bulk-user-' || i as username, i, ts
        from generate_series($1::int, $2::int) i, lateral (select timestamptz '2020-01-01' - i * interval '1 second' as ts) x
       where not exists (select 1 from users where username = 'bulk-user-' || i)),
    u as (
      insert into users (id, username, email, name, namespace_id, created_at, updated_at)
      select uid, username, username || '@example.com', 'Bulk User ' || i, nid, ts, ts from s
      on conflict do nothing returning id)
    insert into namespaces (id, name, path, full_path, full_name, kind, owner_id)
    select s.nid, s.username, s.username, s.username, s.username, 'user', s.uid from s join u on u.id = s.uid`,
  );

const addGroups = (pool, log, target) =>
  load(
    pool,
    log,
    'namespaces',
    'groups',
    1,
    target,
    50000,
    `
    insert into namespaces (id, name, path, full_path, full_name, kind, visibility_level, description, traversal_ids, created_at, updated_at)
    select id, 'Bulk ' || i, 'bulk-' || i, 'bulk-' || i, 'Bulk ' || i, 'group', case when i % 2 = 1 then 20 else 0 end,
           'bulk group ' || i, array[id], ts, ts
      from (select nextval('namespaces_id_seq')::int as id, i, timestamptz '2020-01-01' - i * interval '1 second' as ts
              from generate_series($1::int, $2::int) i) s
    on conflict do nothing`,
  );

// group i (bulk-<i>) holds projects 2i-1 and 2i
const addProjects = (pool, log, groups) =>
  load(
    pool,
    log,
    'projects',
    'projects',
    1,
    groups,
    50000,
    `
    insert into projects (name, path, namespace_id, visibility_level, description, created_at, updated_at, last_activity_at)
    select 'Bulk project ' || (2 * g.i - 2 + j), 'bulk-project-' || (2 * g.i - 2 + j), n.id, n.visibility_level, 'bulk project', ts, ts, ts
      from generate_series($1::int, $2::int) g(i)
      join namespaces n on lower(n.full_path) = 'bulk-' || g.i
      cross join generate_series(1, 2) j,
      lateral (select timestamptz '2020-01-01' - (2 * g.i - 2 + j) * interval '1 second' as ts) x
    on conflict do nothing`,
  );

/** bulk-member: Developer of the 50 top-level groups scale-1 … scale-50 (the same in the small and the large data set). */
async function ensureMember(dbUrl) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await db.query(
      `insert into users (username, email, name) values ('bulk-member', 'bulk-member@example.com', 'Bulk Member') on conflict do nothing`,
    );
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

async function addJobs(pool, log, target) {
  const db = pool[0];
  const runners = Math.ceil(target / JOBS_PER_RUNNER);
  const haveRunners = await count(db, `select count(*) as n from ci_runners where description like 'bulk-runner-%'`);
  if (haveRunners < runners) {
    await db.query(
      `
      insert into ci_runners (description, token, token_digest, is_shared, active, name, created_at, updated_at)
      select 'bulk-runner-' || i, (select token from ci_runners order by id limit 1), md5('bulk-runner-' || i), true, true, 'gitlab-runner', now(), now()
        from generate_series($1::int, $2::int) i on conflict do nothing`,
      [haveRunners + 1, runners],
    );
  }
  const pipelines = Math.ceil(target / JOBS_PER_PIPELINE);
  // pipeline i on project bulk-project-i of group bulk-<(i + 1) / 2>, ref bulk-<i>
  await load(
    pool,
    log,
    'ci_pipelines',
    'pipelines',
    1,
    pipelines,
    25000,
    `
      insert into ci_pipelines (project_id, sha, ref, status, created_at, updated_at)
      select p.id, md5('bulk-' || i), 'bulk-' || i, 'success', now(), now()
        from generate_series($1::int, $2::int) i
        join namespaces n on lower(n.full_path) = 'bulk-' || ((i + 1) / 2)
        join projects p on p.namespace_id = n.id and lower(p.path) = 'bulk-project-' || i`,
  );
  // pipeline bulk-<i> holds jobs k = 100 (i - 1) + 1 … 100 i, on runner bulk-runner-<1 + (k - 1) / 1000>.
  // Chunks run over pipeline numbers i, found through a map built once (pipeline ids follow no order).
  await db.query('drop table if exists bench_load.pipelines, bench_load.runners');
  await db.query(`create table bench_load.pipelines as
      select substr(ref, 6)::int as i, id, project_id, created_at from ci_pipelines where ref like 'bulk-%'`);
  await db.query('create unique index bench_load_pipelines_i on bench_load.pipelines (i)');
  await db.query(`create table bench_load.runners as
      select array_agg(id order by substr(description, 13)::int) as ids from ci_runners where description like 'bulk-runner-%'`);
  await load(
    pool,
    log,
    'ci_builds',
    'jobs',
    1,
    pipelines,
    500,
    `
    insert into ci_builds (project_id, pipeline_id, runner_id, status, stage, name, ref, created_at, started_at, finished_at, updated_at)
    select pl.project_id, pl.id, r.ids[1 + (k - 1) / ${JOBS_PER_RUNNER}], (array['success','failed','canceled','skipped'])[1 + k % 4], 'test',
           'bulk-job-' || k, 'main', pl.created_at, pl.created_at, pl.created_at + interval '30 seconds', pl.created_at
      from bench_load.pipelines pl cross join generate_series(1, ${JOBS_PER_PIPELINE}) j cross join bench_load.runners r,
           lateral (select ${JOBS_PER_PIPELINE} * (pl.i - 1) + j as k) x
     where pl.i between $1 and $2`,
  );
}

const BULK_TABLES = ['users', 'namespaces', 'projects', 'ci_runners', 'ci_pipelines', 'ci_builds'];

/**
 * Adds the large data set (idempotent), then VACUUM ANALYZE; returns the row counts. `superUrl`: the
 * large database as the PostgreSQL superuser (set-up only: session_replication_role, max_wal_size).
 */
async function addLarge(superUrl, opts, log) {
  const pool = [];
  for (let i = 0; i < CONNECTIONS; i += 1) pool.push(await connect(superUrl));
  const db = pool[0];
  try {
    const started = Date.now();
    log(
      `large: ${opts.users} users, ${opts.groups} groups, ${opts.groups * 2} projects, ${opts.jobs} jobs (only what is missing)…`,
    );
    await db.query(`create schema if not exists bench_load;
      create table if not exists bench_load.chunks (step text, a int, primary key (step, a));
      create table if not exists bench_load.indexes (tbl text, name text primary key, def text)`);
    await db.query(`alter system set max_wal_size = '8GB'`);
    await db.query('select pg_reload_conf()');
    try {
      await addUsers(pool, log, opts.users);
      await addGroups(pool, log, opts.groups);
      await addProjects(pool, log, opts.groups);
      if (opts.jobs > 0) await addJobs(pool, log, opts.jobs);
    } finally {
      await db.query('alter system reset max_wal_size');
      await db.query('select pg_reload_conf()');
    }
    const t0 = Date.now();
    // the biggest table on one connection, the rest (then the whole database's statistics) on the other
    await Promise.all([
      pool[0].query('vacuum analyze ci_builds'),
      (async () => {
        for (const t of BULK_TABLES.filter((x) => x !== 'ci_builds')) await pool[1].query(`vacuum analyze ${t}`);
      })(),
    ]);
    await db.query('analyze');
    log(`large: vacuum analyze ${secs(t0)}; loaded in ${secs(started)}`);
    return {
      groups: await count(db, `select count(*) as n from namespaces where kind = 'group'`),
      projects: await count(db, `select count(*) as n from projects`),
      users: await count(db, `select count(*) as n from users`),
      // exact after VACUUM (it counts every page's live rows), without a 10M-row count
      jobs: await count(db, `select reltuples::bigint as n from pg_class where oid = 'ci_builds'::regclass`),
    };
  } finally {
    for (const c of pool) await c.end();
  }
}

module.exports = { addLarge, ensureMember };
