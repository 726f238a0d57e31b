// `npm run bench -- --large`: the growth bench (docs/growth.md#running-the-growth-bench). Two services on one
// embedded PostgreSQL: the small data set (scale seed, database gitlab_admin) and the large one (the
// same seed plus bulk rows, database gitlab_large), both up at once, each list measured on both in turn
// (one client, sequential requests, p50/p99), then the growth ratio large / small per list.
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { waitReady, startService, seed, databaseUrl, stop } = require('./processes');
const { treeMemory } = require('./rss');
const { addLarge } = require('./large');
const { addFarEnd } = require('./far-end');
const { growthContext, growthScenarios, timeRoute } = require('./growth');
const { factsLines, writeSection } = require('./results');
const { growthLines, ms } = require('./growth-report');

const LARGE_DB = 'gitlab_large';

/** The superuser's URL of the embedded PostgreSQL under dataDir (set-up only: creates the large database). */
function superUrl(dataDir, db) {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const inst = JSON.parse(fs.readFileSync(path.join(dataDir, 'instance.json'), 'utf8'));
  return {
    url: `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${inst.port}/${db}`,
    app: creds.app.user,
  };
}

async function ensureLargeDatabase(dataDir) {
  const { url, app } = superUrl(dataDir, 'postgres');
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rowCount } = await db.query('select 1 from pg_database where datname = $1', [LARGE_DB]);
    if (rowCount === 0) await db.query(`create database ${LARGE_DB} owner ${db.escapeIdentifier(app)}`);
  } finally {
    await db.end();
  }
  // the service's own role (not the superuser), as on the small side
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')).app;
  const u = new URL(url);
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@${u.host}/${LARGE_DB}`;
}

/** After seeding, as a deployment's autovacuum would have: visibility map (index-only scans) and statistics. */
async function vacuumAnalyze(dbUrl) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    await db.query('vacuum analyze');
  } finally {
    await db.end();
  }
}

/** Writes measured like the lists: each request creates or changes something new (i = request number). */
function writeScenarios(ctx, stamp) {
  const json = (method, p, body) => ({ method, path: `/api/v4${p}`, body });
  return [
    {
      key: 'POST /groups',
      who: 'admin',
      req: (i) => json('POST', '/groups', { name: `Growth ${stamp}-${i}`, path: `growth-${stamp}-${i}` }),
    },
    { key: 'POST /projects', who: 'admin', req: (i) => json('POST', '/projects', { name: `growth-${stamp}-${i}` }) },
    {
      key: 'PUT /application/settings',
      who: 'admin',
      req: (i) => json('PUT', '/application/settings', { default_projects_limit: 100000 + (i % 2) }),
    },
    {
      key: 'POST /groups/:id/members',
      who: 'admin',
      req: (i) =>
        json('POST', `/groups/${ctx.groupId}/members`, {
          user_id: ctx.userIds[i % ctx.userIds.length],
          access_level: 30,
        }),
    },
  ];
}

/** Scale users not yet members of the group (each run takes the next ones, newest first). */
async function newMemberIds(dbUrl, groupId) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `select u.id from users u where u.username like 'scale-user-%'
          and not exists (select 1 from group_members gm where gm.user_id = u.id and gm.group_id = $1)
        order by u.id desc limit 40`,
      [groupId],
    );
    return rows.map((r) => r.id);
  } finally {
    await db.end();
  }
}

async function largeRun(opts) {
  const { dataDir, scale, token, port, workers, requests, large, log } = opts;
  const only = opts.only ?? [''];
  const wanted = (key) => only.some((o) => key.includes(o));
  const small = startService({ port, dataDir, token, workers });
  let big;
  try {
    await waitReady(`${small.base}/-/readiness`);
    log(`seeding ${scale} scale unit(s) into the small data set (idempotent)…`);
    seed(small.env, scale);
    const smallUrl = databaseUrl(dataDir);
    await addFarEnd(smallUrl, log);
    await vacuumAnalyze(smallUrl);
    const largeUrl = await ensureLargeDatabase(dataDir);
    const largeDir = path.join(dataDir, 'large');
    fs.mkdirSync(largeDir, { recursive: true });
    big = startService({ port: port + 2, dataDir: largeDir, token, workers, env: { DATABASE_URL: largeUrl } });
    await waitReady(`${big.base}/-/readiness`);
    log(`seeding ${scale} scale unit(s) into the large data set, then the bulk rows…`);
    seed(big.env, scale);
    const started = Date.now();
    const counts = await addLarge(superUrl(dataDir, LARGE_DB).url, large, log);
    await addFarEnd(largeUrl, log);
    const loadSeconds = Math.round((Date.now() - started) / 1000);
    const sides = [
      { name: 'small', svc: small, url: smallUrl },
      { name: 'large', svc: big, url: largeUrl },
    ];
    for (const s of sides) s.ctx = await growthContext(s.svc.base, token, s.url);
    const stamp = Date.now().toString(36);
    for (const s of sides) s.ctx.userIds = await newMemberIds(s.url, s.ctx.groupId);
    const rows = [];
    const tokenOf = (s, who) => (who === 'admin' ? token : who === 'member' ? s.ctx.memberToken : null);
    const lists = growthScenarios(sides[1].ctx)
      .map((sc, i) => ({ sc, per: sides.map((s) => growthScenarios(s.ctx)[i]) }))
      .filter(({ sc }) => wanted(sc.key));
    for (const { sc, per } of lists) {
      const r = { key: sc.key, who: sc.who, path: sc.path.replace('/api/v4', '') };
      for (let k = 0; k < sides.length; k += 1)
        r[sides[k].name] = await timeRoute(
          sides[k].svc.base,
          per[k].req ?? per[k].path,
          tokenOf(sides[k], sc.who),
          requests,
        );
      log(`  ${sc.key}: small p50 ${ms(r.small.p50)} ms, large p50 ${ms(r.large.p50)} ms`);
      rows.push(r);
    }
    for (const w of writeScenarios(sides[0].ctx, stamp).filter((x) => wanted(x.key))) {
      const r = { key: w.key, who: w.who, path: '' };
      for (const s of sides) {
        const sw = writeScenarios(s.ctx, `${stamp}${s.name[0]}`).find((x) => x.key === w.key);
        r[s.name] = await timeRoute(
          s.svc.base,
          sw.req,
          tokenOf(s, w.who),
          Math.min(requests, s.ctx.userIds.length - 3),
        );
      }
      log(`  ${w.key}: small p50 ${ms(r.small.p50)} ms, large p50 ${ms(r.large.p50)} ms`);
      rows.push(r);
    }
    const mem = sides.map((s) => treeMemory(s.svc.child.pid));
    const section = [
      ...(await factsLines(opts.facts, largeUrl)),
      '',
      ...growthLines({ scale, requests, counts, loadSeconds, rows, mem }),
    ];
    console.log(`\n${section.join('\n')}`);
    if (opts.results) log(`written: ${path.relative(process.cwd(), writeSection('growth', section, opts.results))}`);
  } finally {
    await stop(big && big.child);
    await stop(small.child);
  }
}

module.exports = { largeRun };
