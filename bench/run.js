#!/usr/bin/env node
// npm run bench [-- options]: the service against its floor, see docs/benchmarks.md#the-floor-comparison-npm-run-bench.
//   --scale N         scale units to seed (100 groups / 1,000 projects each; default 10)
//   --duration S      seconds per measurement (default 5)     --connections C (default 16)
//   --rounds R        service/floor alternations per scenario, medians taken (default 3)
//   --data-dir DIR    reuse (and keep) this data directory instead of a throwaway one
//   --only A,B        only scenarios whose key contains one of these texts (with --large too)
//   --soak S          afterwards, S seconds of mixed load sampling the service's RSS (growth check)
//   --keyset [N]      afterwards, bulk-add groups up to N (default 1,000,000) and compare keyset page 5,000 with page 1
//   --large [N]       instead of the floor comparison, the growth bench (docs/growth.md#running-the-growth-bench): every list
//                     on the scale seed and on the same plus N top-level groups (default 1,000,000; two projects
//                     each), --large-users (100,000) and --large-jobs (10,000,000) bulk rows, p50/p99 of
//                     --requests (15) sequential requests per list and side, and the growth ratio
//   --profile DIR     run the service under node --cpu-prof, profiles written to DIR when it stops
//   --workers N       the service's WORKERS (default: its own, one per core; 0 = one process without
//                     supervisor); the floor runs as many processes (at least one), so both use the same cores
//   --results FILE    where the run's section goes (default bench/RESULTS.md, docs/benchmarks.md#results)
//   --no-results      the run writes no file
// Env BENCH_DIST=DIR runs another build of the service (default dist/). Besides req/s, each round
// records the CPU ms per request of the service and of the floor (from /proc, summed over their
// processes): steadier than req/s on a shared machine. Memory: RSS and PSS per process (primary, workers).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { waitReady, startService, seed, databaseUrl, startFloor, stop } = require('./lib/processes');
const { median, spread, hammer, hammerCpu, compareBodies } = require('./lib/load');
const { treeMemory, sampleRss } = require('./lib/rss');
const { scenarios } = require('./lib/scenarios');
const { addGroups, cursorOfPage } = require('./lib/keyset');
const { largeRun } = require('./lib/growth-run');
const { floorTable, memoryLine, fmt } = require('./lib/floor-report');
const { startFacts, factsLines, writeSection, resultsFile } = require('./lib/results');

const argv = process.argv.slice(2);
const has = (name) => argv.includes(`--${name}`);
const arg = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[i + 1] : dflt;
};
const scale = Number(arg('scale', 10));
const load = { duration: Number(arg('duration', 5)), connections: Number(arg('connections', 16)) };
const rounds = Number(arg('rounds', 3));
const only = arg('only', '').split(',');
const soak = Number(arg('soak', 0));
const keysetTarget = has('keyset') ? Number(arg('keyset', 1000000)) : 0;
const profileDir = arg('profile', '');
const workersArg = arg('workers', process.env.WORKERS || '');
/** The service's WORKERS (undefined: its default, one per core) and the floor's process count. */
const workers = workersArg === '' ? undefined : Number(workersArg);
const floorWorkers = Math.max(1, workers ?? os.availableParallelism());
const token = 'bench-root-token-0123456789';
const servicePort = 18000 + Math.floor(Math.random() * 1000);
const floorPort = servicePort + 1000;
const keepDir = arg('data-dir', '');
const dataDir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'gl-bench-'));
fs.mkdirSync(dataDir, { recursive: true });
fs.chmodSync(dataDir, 0o755);
const log = (m) => process.stderr.write(`${m}\n`);
const facts = startFacts(argv);
const results = resultsFile(argv);

async function measure(service, floor, sc, rss) {
  const check = await compareBodies(service.base, floor.base, sc.req, token, sc.mask);
  if (!check.ok) log(`\n!!! BODY ${check.note}\n!!! scenario: ${sc.title}\n`);
  await hammer(service.base, sc.req, token, { ...load, duration: 1 }); // warm-up (JIT, pools)
  await hammer(floor.base, sc.req, token, { ...load, duration: 1 });
  const s = [];
  const f = [];
  for (let i = 0; i < rounds; i += 1) {
    s.push(await hammerCpu(service.base, service.child.pid, sc.req, token, load));
    rss.push(treeMemory(service.child.pid));
    f.push(await hammerCpu(floor.base, floor.child.pid, sc.req, token, load));
  }
  const out = {
    key: sc.key,
    title: sc.title,
    check,
    service: median(s.map((x) => x.rps)),
    floor: median(f.map((x) => x.rps)),
    p50: median(s.map((x) => x.p50)),
    p99: median(s.map((x) => x.p99)),
    cpuS: median(s.map((x) => x.cpu)),
    cpuF: median(f.map((x) => x.cpu)),
    noise: `${spread(s.map((x) => x.rps))}/${spread(f.map((x) => x.rps))}`,
    bad: s.concat(f).reduce((a, x) => a + x.bad, 0),
  };
  log(
    `  ${sc.key}: service ${s.map((x) => fmt(x.rps)).join(' ')} | floor ${f.map((x) => fmt(x.rps)).join(' ')} req/s; CPU ms/req service ${s.map((x) => x.cpu.toFixed(2)).join(' ')} | floor ${f.map((x) => x.cpu.toFixed(2)).join(' ')}`,
  );
  return out;
}

async function soakRun(service, list) {
  log(`soak: ${soak} s of mixed load, RSS (all service processes) sampled every 5 s`);
  const sampler = sampleRss(service.child.pid, 5000);
  const t0 = Date.now();
  let i = 0;
  while (Date.now() - t0 < soak * 1000) {
    await hammer(service.base, list[i % list.length].req, token, {
      ...load,
      duration: Math.min(5, Math.ceil(soak - (Date.now() - t0) / 1000)),
    });
    i += 1;
  }
  const samples = sampler.stop().map((x) => x.mb);
  const steady = samples.slice(Math.min(2, samples.length - 1));
  const last = sampler.samples[sampler.samples.length - 1];
  return `Soak: RSS over ${soak} s of mixed load (MB, sum of the service's processes, every 5 s): ${samples.join(' ')}; growth after the first 10 s: ${steady[steady.length - 1] - steady[0]} MB; last per process ${last ? last.perProcess.join(' / ') : '-'}.`;
}

async function keysetCheck(service, dbUrl) {
  const total = await addGroups(dbUrl, keysetTarget, log);
  log('keyset: walking to page 5,000 (per_page=20) through Link headers…');
  const cursor = await cursorOfPage(service.base, token, 5000, 20);
  const first = { path: '/api/v4/groups?pagination=keyset&order_by=name' };
  const deep = { path: `/api/v4/groups?pagination=keyset&order_by=name&cursor=${cursor}` };
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i += 1) {
    a.push(await hammer(service.base, first, token, load));
    b.push(await hammer(service.base, deep, token, load));
  }
  const p1 = median(a.map((x) => x.p50));
  const p5000 = median(b.map((x) => x.p50));
  const ratio = p5000 / p1;
  return `Keyset at ${fmt(total)} groups (\`GET /groups?pagination=keyset&order_by=name\`): page 1 ${fmt(median(a.map((x) => x.rps)))} req/s (p50 ${p1} ms), page 5,000 ${fmt(median(b.map((x) => x.rps)))} req/s (p50 ${p5000} ms); page 5,000 / page 1 latency ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'pass' : '**fail**'}).`;
}

/** A specific runner of the first scale unit (1,000 jobs at scale ≥ 1). */
async function scaleRunnerId(dbUrl) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const { rows } = await c.query(`select id from ci_runners where description = 'scale-runner-1-2'`);
    return rows[0] ? rows[0].id : 0;
  } finally {
    await c.end();
  }
}

async function main() {
  if (has('large')) {
    const large = {
      groups: Number(arg('large', 1000000)),
      users: Number(arg('large-users', 100000)),
      jobs: Number(arg('large-jobs', 10000000)),
    };
    try {
      await largeRun({
        dataDir,
        scale,
        token,
        port: servicePort,
        workers: workers ?? 0,
        requests: Number(arg('requests', 15)),
        large,
        log,
        only,
        facts,
        results,
      });
    } finally {
      if (!keepDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return;
  }
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const service = startService({ port: servicePort, dataDir, token, nodeArgs, workers });
  let floor;
  let failed = false;
  try {
    await waitReady(`${service.base}/-/readiness`);
    log(`seeding ${scale} scale unit(s) (idempotent)…`);
    seed(service.env, scale);
    const dbUrl = databaseUrl(dataDir);
    floor = startFloor({ port: floorPort, dbUrl, externalUrl: service.base, dataDir, workers: floorWorkers });
    await waitReady(`${floor.base}/api/v4/groups?per_page=1`);
    const hit = await (
      await fetch(`${service.base}/api/v4/groups/scale-1%2Fteam-1`, { headers: { 'PRIVATE-TOKEN': token } })
    ).json();
    const runnerId = await scaleRunnerId(dbUrl);
    const list = scenarios({ detailId: hit.id, runnerId }).filter((s) => only.some((o) => s.key.includes(o)));
    const rss = [treeMemory(service.child.pid)];
    const measured = [];
    for (const sc of list)
      measured.push({ ...(await measure(service, floor, sc, rss)), ratioTo: sc.ratioTo, target: sc.target });
    failed = measured.some((r) => !r.check.ok);
    const shape = `service WORKERS=${workers ?? `default (${os.availableParallelism()})`}, floor ${floorWorkers} process${floorWorkers > 1 ? 'es' : ''}`;
    const lines = [
      `Scale ${scale} (${fmt(scale * 100)} groups, ${fmt(scale * 1000)} projects), ${load.connections} connections, ${load.duration} s × ${rounds} round${rounds === 1 ? '' : 's'} per side alternated, medians; ${shape}.`,
      '',
      ...floorTable(measured),
      '',
      memoryLine(rss),
    ];
    if (failed)
      lines.push(
        '',
        '**Body mismatch**: service and floor answered differently; the ratios of those rows mean nothing.',
      );
    if (soak > 0) lines.push('', await soakRun(service, list));
    if (keysetTarget > 0) lines.push('', await keysetCheck(service, dbUrl));
    const section = [...(await factsLines(facts, dbUrl)), '', ...lines];
    console.log(`\n${section.join('\n')}`);
    if (results) log(`written: ${path.relative(process.cwd(), writeSection('floor', section, results))}`);
  } finally {
    await stop(floor && floor.child);
    await stop(service.child);
    if (!keepDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
