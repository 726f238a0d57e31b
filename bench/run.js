#!/usr/bin/env node
// npm run bench [-- --scale N --duration S --connections C]
// Starts the built service on a throwaway embedded PostgreSQL (or DATABASE_URL), seeds N scale units
// (100 groups / 1,000 projects / 10 runners with 10,000 jobs each), then drives a few endpoints with autocannon on 127.0.0.1.
// Bounded: each scenario runs --duration seconds (default 5). Prints a table of req/s and latencies.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const scale = arg('scale', 10);
const duration = arg('duration', 5);
const connections = arg('connections', 16);
const port = 18000 + Math.floor(Math.random() * 1000);
const token = 'bench-root-token-0123456789';
const root = path.resolve(__dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-bench-'));
fs.chmodSync(dataDir, 0o755);
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, INITIAL_ROOT_TOKEN: token, LOG_LEVEL: 'warn', NODE_ENV: 'production' };

async function waitReady() {
  for (let i = 0; i < 200; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/-/readiness`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('service did not become ready');
}

function run(title, opts) {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(opts.anonymous ? {} : { 'PRIVATE-TOKEN': opts.token || token }) };
    autocannon({ url: `http://127.0.0.1:${port}${opts.path}`, connections, duration, headers, method: opts.method || 'GET', body: opts.body }, (err, r) => {
      if (err) return reject(err);
      resolve({ scenario: title, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

async function main() {
  const server = spawn(process.execPath, [path.join(root, 'dist/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitReady();
    process.stderr.write(`seeding ${scale} scale unit(s)...\n`);
    execFileSync(process.execPath, [path.join(root, 'dist/cli/seed.js'), '--scale', String(scale)], { env, stdio: 'inherit' });
    const results = [];
    const groups = await (await fetch(`http://127.0.0.1:${port}/api/v4/groups?search=scale-1&per_page=1`, { headers: { 'PRIVATE-TOKEN': token } })).json();
    const gid = groups[0] ? groups[0].id : 1;
    const deepPage = Math.max(1, Math.floor((scale * 100) / 20) - 1);
    // A normal user with memberships: the visibility SQL (membership, ancestors, shares) is on this path.
    const users = await (await fetch(`http://127.0.0.1:${port}/api/v4/users?username=scale-user-1`, { headers: { 'PRIVATE-TOKEN': token } })).json();
    const imp = await (await fetch(`http://127.0.0.1:${port}/api/v4/users/${users[0].id}/impersonation_tokens`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', scopes: ['api'] }),
    })).json();
    results.push(await run('GET /groups (member, own groups)', { path: '/api/v4/groups', token: imp.token }));
    results.push(await run('GET /groups?all_available (member)', { path: '/api/v4/groups?all_available=true', token: imp.token }));
    results.push(await run('GET /projects (member)', { path: '/api/v4/projects', token: imp.token }));
    results.push(await run('GET /groups (admin, page 1)', { path: '/api/v4/groups?all_available=true' }));
    results.push(await run(`GET /groups (offset page ${deepPage})`, { path: `/api/v4/groups?all_available=true&page=${deepPage}` }));
    results.push(await run('GET /groups?statistics=true', { path: '/api/v4/groups?statistics=true' }));
    results.push(await run('GET /groups (keyset, first page)', { path: '/api/v4/groups?pagination=keyset&order_by=name' }));
    results.push(await run('GET /groups?search=team', { path: '/api/v4/groups?search=team' }));
    results.push(await run('GET /groups/:id (detail)', { path: `/api/v4/groups/${gid}` }));
    results.push(await run('GET /groups/:id/projects', { path: `/api/v4/groups/${gid}/projects` }));
    results.push(await run('GET /projects (admin)', { path: '/api/v4/projects' }));
    results.push(await run('POST /graphql groups(perPage:20)', { path: '/graphql', method: 'POST', body: JSON.stringify({ query: '{ groups(perPage: 20) { total nodes { id fullPath visibility } } }' }) }));
    results.push(await run('GET /groups (anonymous)', { path: '/api/v4/groups', anonymous: true }));
    // The largest lists of the service: a specific runner's 1,000 jobs per scale unit, 100 per page.
    const runners = await (await fetch(`http://127.0.0.1:${port}/api/v4/runners/all?scope=specific&per_page=100`, { headers: { 'PRIVATE-TOKEN': token } })).json();
    const busy = runners.find((r) => r.description === 'scale-runner-1-2') || runners[0];
    if (busy) results.push(await run('GET /runners/:id/jobs?per_page=100', { path: `/api/v4/runners/${busy.id}/jobs?per_page=100` }));
    console.log(`\nscale ${scale} (${scale * 100} groups, ${scale * 1000} projects, ${scale * 10000} jobs), ${connections} connections, ${duration}s per scenario, ${os.cpus().length} cores`);
    console.table(results);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
