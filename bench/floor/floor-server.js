#!/usr/bin/env node
// The "floor" of `npm run bench` (docs/benchmarks.md#the-floor-comparison-npm-run-bench): a minimal hand-written express + pg server answering the
// bench's routes with the same JSON as the service, on the service's own database. Written on its own
// (nothing imported from src/): one auth query, one count, one page query, one batched query per
// nested collection. Only what the bench asks: admin or anonymous callers, default ordering.
// Env: FLOOR_DATABASE_URL, PORT, EXTERNAL_URL (the service's, so web_url values are the same).
const crypto = require('node:crypto');
const express = require('express');
const { Pool } = require('pg');
const { projectRows, groupJson } = require('./floor-rows');
const { graphqlHandler } = require('./floor-graphql');
const { runnerJobsHandler } = require('./floor-jobs');

const pool = new Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });
const base = process.env.EXTERNAL_URL;
const host = new URL(base).hostname;
const q = async (sql, params) => (await pool.query(sql, params)).rows;

// One indexed lookup: the token's digest joined to its active user.
async function authenticate(req, res, next) {
  const token = req.get('private-token');
  if (token === undefined) {
    req.caller = null;
    return next();
  }
  const digest = crypto.createHash('sha256').update(token, 'utf8').digest('hex');
  const [user] = await q(
    `select u.id, u.admin from personal_access_tokens t join users u on u.id = t.user_id
      where t.token_digest = $1 and not t.revoked and (t.expires_at is null or t.expires_at > current_date) and u.state = 'active'`,
    [digest],
  );
  if (!user) return res.status(401).json({ message: '401 Unauthorized' });
  req.caller = user;
  return next();
}

/** Anonymous sees public rows, an admin everything; other users are out of the floor's scope. */
function visibility(req, alias) {
  if (!req.caller) return `${alias}.visibility_level = 20`;
  if (req.caller.admin) return 'true';
  return null;
}

function page(req) {
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page) || 20));
  const pageNo = Math.max(1, Number(req.query.page) || 1);
  return { perPage, offset: (pageNo - 1) * perPage, pageNo };
}

function pageHeaders(res, total, p) {
  res.set({
    'X-Total': String(total),
    'X-Page': String(p.pageNo),
    'X-Per-Page': String(p.perPage),
    'X-Total-Pages': String(Math.ceil(total / p.perPage)),
  });
}

const ctx = { q, base, host };
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json());
app.use(authenticate);

app.get('/api/v4/groups', async (req, res) => {
  const vis = visibility(req, 'n');
  if (vis === null) return res.status(501).json({ message: 'floor: admin or anonymous only' });
  const p = page(req);
  const where = `n.kind = 'group' and ${vis}`;
  const [{ n }] = await q(`select count(*) as n from namespaces n where ${where}`);
  const rows = await q(
    `select n.* from namespaces n where ${where} order by n.name asc, n.id asc limit ${p.perPage} offset ${p.offset}`,
  );
  pageHeaders(res, Number(n), p);
  res.json(rows.map((g) => groupJson(g, base)));
});

app.get('/api/v4/projects', async (req, res) => {
  const vis = visibility(req, 'p');
  if (vis === null) return res.status(501).json({ message: 'floor: admin or anonymous only' });
  const p = page(req);
  const [{ n }] = await q(`select count(*) as n from projects p where ${vis}`);
  const rows = await q(
    `select p.* from projects p where ${vis} order by p.created_at desc, p.id desc limit ${p.perPage} offset ${p.offset}`,
  );
  pageHeaders(res, Number(n), p);
  res.json(await projectRows(ctx, rows, Boolean(req.caller?.admin), req.caller ? req.caller.id : null));
});

app.get('/api/v4/groups/:id', async (req, res) => {
  const vis = visibility(req, 'p');
  if (vis === null) return res.status(501).json({ message: 'floor: admin or anonymous only' });
  const key = req.params.id;
  const byId = /^\d+$/.test(key);
  const [g] = await q(
    `select n.* from namespaces n where n.kind = 'group' and ${visibility(req, 'n')} and ${byId ? 'n.id = $1' : 'lower(n.full_path) = lower($1)'}`,
    [byId ? Number(key) : key],
  );
  if (!g) return res.status(404).json({ message: '404 Group Not Found' });
  // projects and shared_projects in one query, told apart by a flag
  const rows = await q(
    `select * from (select false as shared, p.* from projects p where p.namespace_id = $1 and ${vis}
      union all select true as shared, p.* from project_group_links l join projects p on p.id = l.project_id where l.group_id = $1 and ${vis}) x
      order by shared, id`,
    [g.id],
  );
  const all = await projectRows(ctx, rows, Boolean(req.caller?.admin));
  const own = all.filter((_, i) => !rows[i].shared);
  const shared = all.filter((_, i) => rows[i].shared);
  res.json({ ...groupJson(g, base), projects: own, shared_projects: shared });
});

app.get('/api/v4/runners/:id/jobs', runnerJobsHandler(ctx, page, pageHeaders));

app.post('/graphql', graphqlHandler(ctx, visibility));

app.use((err, _req, res, _next) => {
  process.stderr.write(`floor error: ${err.stack || err}\n`);
  res.status(500).json({ message: '500 Internal Server Error' });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () =>
  process.stderr.write(`floor listening on ${process.env.PORT}\n`),
);
server.keepAliveTimeout = 5000;
process.on('SIGTERM', () => process.exit(0));
