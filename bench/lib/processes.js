// Starting and stopping what the bench measures: the built service (dist/main.js) on an embedded
// PostgreSQL under a data directory (or DATABASE_URL), and the floor (bench/floor) on the same database.
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { startFlags } = require('../../scripts/start-flags');

const root = path.resolve(__dirname, '..', '..');
// BENCH_DIST: another build of the service (e.g. `tsc --outDir /tmp/dist-x`) to compare variants.
const dist = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : path.join(root, 'dist');

async function waitReady(url) {
  for (let i = 0; i < 240; i += 1) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become ready`);
}

/**
 * The service as `npm start` runs it: the supervisor's primary with WORKERS workers
 * (docs/operations.md#process-supervision-and-uncaught-errors); `workers` undefined keeps the service's default (one per core), 0 is one process.
 */
function startService({ port, dataDir, token, nodeArgs = [], workers, env: extraEnv = {} }) {
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    INITIAL_ROOT_TOKEN: token,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  if (workers !== undefined) env.WORKERS = String(workers);
  else delete env.WORKERS;
  // The service runs with the node flags of `npm start` (heap sizing, docs/operations.md#memory);
  // BENCH_NODE_ARGS replaces them for experiments (e.g. BENCH_NODE_ARGS=' ' for node's defaults).
  const extra =
    process.env.BENCH_NODE_ARGS !== undefined ? process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean) : startFlags();
  const child = spawn(process.execPath, [...extra, ...nodeArgs, path.join(dist, 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, env, base: `http://127.0.0.1:${port}` };
}

function seed(env, scale) {
  execFileSync(process.execPath, [path.join(dist, 'cli/seed.js'), '--scale', String(scale)], { env, stdio: 'inherit' });
}

/** The service's database: DATABASE_URL, or the embedded instance it announced in DATA_DIR. */
function databaseUrl(dataDir) {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const inst = JSON.parse(fs.readFileSync(path.join(dataDir, 'instance.json'), 'utf8'));
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${inst.port}/gitlab_admin`;
}

/** The floor; with `workers` > 1, that many floor processes on one port (bench/floor/floor-cluster.js). */
function startFloor({ port, dbUrl, externalUrl, dataDir, workers = 1 }) {
  const env = {
    ...process.env,
    PORT: String(port),
    FLOOR_DATABASE_URL: dbUrl,
    EXTERNAL_URL: externalUrl,
    FLOOR_SECRETS_FILE: path.join(dataDir, 'secrets.key'),
    FLOOR_WORKERS: String(workers),
  };
  const script = workers > 1 ? 'floor-cluster.js' : 'floor-server.js';
  const child = spawn(process.execPath, [path.join(root, 'bench/floor', script)], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
  await exited;
  clearTimeout(timer);
}

module.exports = { waitReady, startService, seed, databaseUrl, startFloor, stop };
