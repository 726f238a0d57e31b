#!/usr/bin/env node
// npm run bench:events [-- options]: what audit events and system hooks cost, against the targets in
// docs/benchmarks.md#events-benchmark-npm-run-benchevents. One service process (WORKERS=0) on its embedded PostgreSQL in a
// throwaway DATA_DIR (or DATABASE_URL), a system hook receiver in a worker thread of this process.
//   1. write cost: PUT /application/settings, POST /groups, PUT /runners/:id without and with a system
//      hook (CPU ms per request of the service from /proc, p50), alternated --rounds times; a no-op
//      settings PUT (no audit row) against a changing one for the audit row's share.
//   2. delivery latency: sequential POST /groups at --rate per second for --latency-seconds; arrival at
//      the receiver minus the end of the response that created the group (p50/p99).
//   3. drain: the receiver answers 503 while --drain-groups POST /groups queue 2 events each, then 200:
//      time until the outbox is drained, events/s, and the service's RSS sampled every 500 ms.
// Options: --duration S (5) --connections C (8) --rounds R (3) --scale N (seed scale units, default 1)
//   --rate N (20) --latency-seconds S (10) --drain-groups N (5000) --drain-connections C (8)
//   --data-dir DIR (reuse and keep) --profile DIR (service under node --cpu-prof) --json FILE (raw figures)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { waitReady, startService, seed, databaseUrl, stop } = require('./lib/processes');
const { median, spread, treeCpu } = require('./lib/load');
const { treeMemory, sampleRss } = require('./lib/rss');

const argv = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[i + 1] : dflt;
};
const load = { duration: Number(arg('duration', 5)), connections: Number(arg('connections', 8)) };
const rounds = Number(arg('rounds', 3));
const scale = Number(arg('scale', 1));
const rate = Number(arg('rate', 20));
const latencySeconds = Number(arg('latency-seconds', 10));
const drainGroups = Number(arg('drain-groups', 5000));
const drainConnections = Number(arg('drain-connections', 8));
const profileDir = arg('profile', '');
const jsonOut = arg('json', '');
const token = 'bench-root-token-0123456789';
const servicePort = 18000 + Math.floor(Math.random() * 1000);
const keepDir = arg('data-dir', '');
const dataDir = keepDir ? path.resolve(keepDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'gl-bench-events-'));
fs.mkdirSync(dataDir, { recursive: true });
fs.chmodSync(dataDir, 0o755);
/** Distinguishes this run's groups from those of an earlier run on a kept data directory. */
const tag = Date.now().toString(36);
const log = (m) => process.stderr.write(`${m}\n`);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

// ---------------------------------------------------------------------------------------------
// The receiver: a plain HTTP server in a worker thread (its own event loop, so the load this thread
// generates does not delay it). It answers `status` and records, per request, the arrival time (end
// of body, same clock as `now()` here), the event UUID, event_name and path.
const receiverCode = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
let status = 200;
let refused = 0;
const arrivals = [];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const t = performance.timeOrigin + performance.now();
    if (status !== 200) { refused += 1; res.writeHead(status); res.end(); return; }
    let p = {};
    try { p = JSON.parse(Buffer.concat(chunks).toString()); } catch {}
    arrivals.push([t, req.headers['x-gitlab-event-uuid'] || '', p.event_name || '', p.path || '']);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ id: 0, port: server.address().port }));
parentPort.on('message', ({ id, op, value }) => {
  if (op === 'status') status = value;
  if (op === 'since') return parentPort.postMessage({ id, arrivals: arrivals.slice(value), total: arrivals.length, refused });
  if (op === 'close') return server.close(() => parentPort.postMessage({ id }));
  parentPort.postMessage({ id, total: arrivals.length, refused });
});
`;

function startReceiver() {
  const worker = new Worker(receiverCode, { eval: true });
  const pending = new Map();
  let next = 1;
  worker.on('message', (m) => {
    const r = pending.get(m.id);
    if (r) {
      pending.delete(m.id);
      r(m);
    }
  });
  const call = (op, value) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      worker.postMessage({ id, op, value });
    });
  const ready = new Promise((resolve) => pending.set(0, resolve));
  return {
    ready,
    setStatus: (s) => call('status', s),
    /** Arrivals from index `i` on: [time, uuid, event_name, path]. */
    since: (i) => call('since', i),
    count: () => call('count'),
    async close() {
      await call('close');
      await worker.terminate();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The service's API and database.
function api(base) {
  return async (method, p, body) => {
    const res = await fetch(`${base}/api/v4${p}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Events in the outbox that some hook has not yet received. */
async function pendingEvents(db) {
  const { rows } = await db.query(
    'select coalesce(sum((select count(*) from system_hook_events e where (e.txid, e.id) > (h.last_txid, h.last_event_id))), 0)::int as n from system_hooks h',
  );
  return rows[0].n;
}

/** Waits until no hook has an event left (polls every `everyMs`); the time it took in ms. */
async function drained(db, { everyMs = 50, timeoutMs = 600_000 } = {}) {
  const t0 = now();
  while ((await pendingEvents(db)) > 0) {
    if (now() - t0 > timeoutMs) throw new Error('outbox not drained in time');
    await sleep(everyMs);
  }
  return now() - t0;
}

/**
 * CPU ms (user + system) of the service's PostgreSQL processes: the descendants of `pid` that are not
 * node, with the time of their children that have exited (a closed connection's backend counts in the
 * postmaster's cutime/cstime once reaped). 0 with DATABASE_URL.
 */
function pgCpu(pid) {
  const children = new Map();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children
        .get(ppid)
        .push({ pid: Number(e), ms: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10 });
    } catch {
      // exited meanwhile
    }
  }
  let exe;
  try {
    exe = fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return 0;
  }
  let total = 0;
  const walk = (p) => {
    for (const c of children.get(p) || []) {
      let cexe = '';
      try {
        cexe = fs.readlinkSync(`/proc/${c.pid}/exe`);
      } catch {}
      if (cexe !== exe) total += c.ms;
      walk(c.pid);
    }
  };
  walk(pid);
  return total;
}

const sumCpu = (pid) => [...treeCpu(pid).values()].reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------------------------------------
// 1. Write cost.
let counter = 0;

/** The measured writes; `make()` gives each request its own body (every request changes something). */
function writeScenarios(runnerIds) {
  return [
    {
      key: 'settings',
      title: 'PUT /application/settings (changes default_projects_limit)',
      method: 'PUT',
      path: () => '/api/v4/application/settings',
      body: () => ({ default_projects_limit: 1000 + (counter++ % 1_000_000) }),
    },
    {
      key: 'settings-noop',
      title: 'PUT /application/settings, same value (no audit row)',
      method: 'PUT',
      path: () => '/api/v4/application/settings',
      body: () => ({ default_projects_limit: 77 }),
      before: (call) => call('PUT', '/application/settings', { default_projects_limit: 77 }),
    },
    {
      key: 'groups',
      emits: true,
      title: 'POST /groups (2 system events each with a hook)',
      method: 'POST',
      path: () => '/api/v4/groups',
      body: () => {
        const n = counter++;
        return { name: `ev ${tag} ${n}`, path: `ev-${tag}-${n}` };
      },
    },
    {
      key: 'runners',
      title: 'PUT /runners/:id (changes description)',
      method: 'PUT',
      path: () => `/api/v4/runners/${runnerIds[counter % runnerIds.length]}`,
      body: () => ({ description: `bench-runner-${tag}-${counter++}` }),
    },
  ];
}

/** Autocannon with a fresh body per request; counts 2xx and the rest. */
function hammerWrites(base, sc, opts) {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'PRIVATE-TOKEN': token };
    const requests = [
      {
        method: sc.method,
        headers,
        setupRequest: (req) => ({ ...req, path: sc.path(), body: JSON.stringify(sc.body()) }),
      },
    ];
    autocannon({ url: base, ...opts, requests }, (err, r) => {
      if (err) return reject(err);
      resolve({
        rps: r.requests.average,
        total: r.requests.total,
        ok: r['2xx'],
        p50: r.latency.p50,
        p99: r.latency.p99,
        bad: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

/**
 * One measurement of `mode`: `without` (no hook), `with` (a hook whose receiver answers 200: events are
 * delivered while the writes run) or `deferred` (the receiver answers 503 during the window, so the
 * window holds the write path alone; then 200 and the drain is the delivery). CPU of the service (and
 * of its PostgreSQL) per answered request over the window and up to the moment nothing is pending.
 */
async function measureWrite(service, db, receiver, sc, mode) {
  const pid = service.child.pid;
  if (mode === 'deferred') await receiver.setStatus(503);
  const c0 = sumCpu(pid);
  const g0 = pgCpu(pid);
  const r = await hammerWrites(service.base, sc, load);
  const c1 = sumCpu(pid);
  const g1 = pgCpu(pid);
  if (mode === 'deferred') await receiver.setStatus(200);
  const lagMs = mode === 'without' ? 0 : await drained(db);
  const c2 = sumCpu(pid);
  const g2 = pgCpu(pid);
  const n = Math.max(1, r.total);
  return {
    ...r,
    cpu: (c1 - c0) / n,
    cpuAll: (c2 - c0) / n,
    cpuAfter: (c2 - c1) / n,
    pg: (g1 - g0) / n,
    pgAll: (g2 - g0) / n,
    lagMs,
  };
}

async function writeCost(service, db, call, receiver, runnerIds) {
  const list = writeScenarios(runnerIds);
  const hookUrl = `http://127.0.0.1:${receiver.port}/hook`;
  const res = new Map(list.map((sc) => [sc.key, { sc, without: [], with: [], deferred: [] }]));
  let hook;
  const setHook = async (on) => {
    if (on && !hook) hook = await call('POST', '/hooks', { url: hookUrl });
    if (!on && hook) {
      await drained(db);
      await call('DELETE', `/hooks/${hook.id}`);
      hook = undefined;
    }
  };
  // warm-up of every route (JIT, pools), without and with a hook
  for (const on of [false, true]) {
    await setHook(on);
    for (const sc of list) {
      if (sc.before) await sc.before(call);
      await hammerWrites(service.base, sc, { ...load, duration: 1 });
    }
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const sc of list) {
      const modes = sc.emits ? ['without', 'with', 'deferred'] : ['without', 'with'];
      // the order turns each round (drift of a shared machine spreads over all modes)
      const order = modes.map((_, i) => modes[(i + round) % modes.length]);
      for (const mode of order) {
        await setHook(mode !== 'without');
        if (hook) await drained(db);
        if (sc.before) await sc.before(call);
        const m = await measureWrite(service, db, receiver, sc, mode);
        res.get(sc.key)[mode].push(m);
        log(
          `  round ${round + 1} ${sc.key} ${mode.padEnd(8)}: ${fmt(m.rps)} req/s, p50 ${m.p50} ms, CPU ${m.cpu.toFixed(2)} ms/req (through delivery ${m.cpuAll.toFixed(2)}), PostgreSQL ${m.pg.toFixed(2)} (${m.pgAll.toFixed(2)}), drained ${Math.round(m.lagMs)} ms after the window${m.bad ? `, ${m.bad} non-2xx/errors!` : ''}`,
        );
      }
    }
  }
  await setHook(false);
  return [...res.values()];
}

// ---------------------------------------------------------------------------------------------
// 2. Delivery latency: sequential group creations at `rate`/s, each matched with its group_create.
async function deliveryLatency(service, db, receiver) {
  await drained(db);
  const startIdx = (await receiver.count()).total;
  const sent = new Map();
  const respMs = [];
  const n = Math.round(rate * latencySeconds);
  const t0 = now();
  for (let i = 0; i < n; i += 1) {
    const due = t0 + (i * 1000) / rate;
    if (due > now()) await sleep(due - now());
    const p = `lat-${tag}-${i}`;
    const s = now();
    const res = await fetch(`${service.base}/api/v4/groups`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: p, path: p }),
    });
    await res.arrayBuffer();
    const end = now();
    if (res.status !== 201) throw new Error(`POST /groups answered ${res.status}`);
    respMs.push(end - s);
    sent.set(p, end);
  }
  const elapsed = (now() - t0) / 1000;
  await drained(db);
  await sleep(200);
  const { arrivals } = await receiver.since(startIdx);
  const lat = [];
  const seen = new Set();
  for (const [t, uuid, ev, p] of arrivals) {
    if (ev !== 'group_create' || !sent.has(p) || seen.has(uuid)) continue;
    seen.add(uuid);
    lat.push(t - sent.get(p));
  }
  return {
    n,
    elapsed,
    matched: lat.length,
    events: arrivals.length,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: Math.max(...lat),
    min: Math.min(...lat),
    respP50: pct(respMs, 50),
    respP99: pct(respMs, 99),
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Drain of a queue built while the receiver fails.
async function drain(service, db, receiver) {
  await drained(db);
  const pid = service.child.pid;
  await receiver.setStatus(503);
  const before = treeMemory(pid).rssSum;
  const queueSampler = sampleRss(pid, 500);
  const tq = now();
  const sc = {
    method: 'POST',
    path: () => '/api/v4/groups',
    body: () => {
      const n = counter++;
      return { name: `dr ${tag} ${n}`, path: `dr-${tag}-${n}` };
    },
  };
  const q = await hammerWrites(service.base, sc, { connections: drainConnections, amount: drainGroups });
  const queueSecs = (now() - tq) / 1000;
  const queueSamples = queueSampler.stop().map((x) => x.mb);
  const queued = await pendingEvents(db);
  const { total: startIdx, refused } = await receiver.count();
  log(
    `  queued ${fmt(queued)} events with ${fmt(q.ok)} POST /groups in ${queueSecs.toFixed(1)} s (${q.bad} non-2xx); the receiver refused ${refused} attempts meanwhile`,
  );
  await sleep(1500); // the service settles after the load (garbage collection) before the drain's start figure
  const start = treeMemory(pid).rssSum;
  const sampler = sampleRss(pid, 500);
  const c0 = sumCpu(pid);
  const g0 = pgCpu(pid);
  const t0 = now();
  await receiver.setStatus(200);
  await drained(db, { everyMs: 100, timeoutMs: 900_000 });
  const t1 = now();
  const c1 = sumCpu(pid);
  const g1 = pgCpu(pid);
  const samples = sampler.stop().map((x) => x.mb);
  await sleep(200);
  const { arrivals } = await receiver.since(startIdx);
  const uuids = new Set(arrivals.map((a) => a[1]));
  const first = arrivals.length ? arrivals[0][0] : t0;
  const last = arrivals.length ? arrivals[arrivals.length - 1][0] : t1;
  const end = treeMemory(pid).rssSum;
  const {
    rows: [logs],
  } = await db.query(
    'select avg(execution_duration)::float as ms from (select execution_duration from system_hook_logs where response_status = 200 order by id desc limit 50) l',
  );
  return {
    groups: q.ok,
    queued,
    queueSecs,
    queueRps: q.ok / queueSecs,
    before,
    queuePeak: Math.max(before, ...queueSamples),
    received: arrivals.length,
    distinct: uuids.size,
    secs: (t1 - t0) / 1000,
    firstWait: (first - t0) / 1000,
    flowSecs: (last - first) / 1000,
    start,
    peak: Math.max(start, ...samples),
    end,
    samples,
    cpuPerEvent: (c1 - c0) / Math.max(1, uuids.size),
    httpMs: logs.ms,
    pgPerEvent: (g1 - g0) / Math.max(1, uuids.size),
  };
}

// ---------------------------------------------------------------------------------------------
function printWriteTable(results) {
  const a = (xs, k) => median(xs.map((x) => x[k]));
  // Ratios are medians of the per-round ratios (each round measures every mode of a route back to back),
  // steadier on a shared machine than the ratio of the medians.
  const ratio = (xs, ys, kx, ky = 'cpu') => median(xs.map((x, i) => x[kx] / ys[i][ky]));
  console.log(
    '\n| write | without hook: req/s, p50 ms, CPU ms/req | with hook, delivering meanwhile: req/s, p50 ms, CPU ms/req in the window (through delivery) | ratio with / without: window (through delivery) | write path alone (delivery deferred): CPU ms/req, ratio; delivery after it, CPU ms/req | PostgreSQL CPU ms/req without / with (through delivery) | noise % CPU (without/with) | target |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { sc, without, with: w, deferred } of results) {
    const cpuA = a(without, 'cpu');
    const cpuB = a(w, 'cpu');
    const cpuBAll = a(w, 'cpuAll');
    const split = deferred.length
      ? `${a(deferred, 'cpu').toFixed(2)}, **${ratio(deferred, without, 'cpu').toFixed(2)}**; ${a(deferred, 'cpuAfter').toFixed(2)}`
      : 'no events: same as with';
    const bad = without.concat(w, deferred).reduce((s, x) => s + x.bad, 0);
    console.log(
      `| ${sc.title} | ${fmt(a(without, 'rps'))}, ${a(without, 'p50')}, ${cpuA.toFixed(2)} | ${fmt(a(w, 'rps'))}, ${a(w, 'p50')}, ${cpuB.toFixed(2)} (${cpuBAll.toFixed(2)}) | **${ratio(w, without, 'cpu').toFixed(2)}** (${ratio(w, without, 'cpuAll').toFixed(2)}) | ${split} | ${a(without, 'pg').toFixed(2)} / ${a(w, 'pg').toFixed(2)} (${a(w, 'pgAll').toFixed(2)}) | ${spread(without.map((x) => x.cpu))}/${spread(w.map((x) => x.cpu))} | ≤ 1.10${bad ? ` — ${bad} non-2xx/errors!` : ''} |`,
    );
  }
  const by = new Map(results.map((r) => [r.sc.key, r]));
  const ch = by.get('settings');
  const noop = by.get('settings-noop');
  if (ch && noop) {
    const c = a(ch.without, 'cpu');
    const o = a(noop.without, 'cpu');
    console.log(
      `\naudit row (always on), from PUT /application/settings without hook: changing ${c.toFixed(2)} ms/req vs no-op ${o.toFixed(2)} ms/req (${ratio(ch.without, noop.without, 'cpu').toFixed(2)}× per round, median; +${(c - o).toFixed(2)} ms: the audit row, its NOTIFY and the changed value; the no-op still runs the UPDATE)`,
    );
  }
}

async function main() {
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  process.env.SYSTEM_HOOK_RETRY_BASE_MS = '200';
  process.env.SYSTEM_HOOK_RETRY_MAX_MS = '1000';
  const loadStart = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const service = startService({ port: servicePort, dataDir, token, nodeArgs, workers: 0 });
  const receiver = startReceiver();
  let db;
  try {
    receiver.port = (await receiver.ready).port;
    await waitReady(`${service.base}/-/readiness`);
    if (scale > 0) {
      log(`seeding ${scale} scale unit(s) (idempotent)…`);
      seed(service.env, scale);
    }
    db = new Client({ connectionString: databaseUrl(dataDir) });
    await db.connect();
    const call = api(service.base);
    await call('PUT', '/application/settings', { allow_local_requests_from_system_hooks: true });
    for (const h of await call('GET', '/hooks?per_page=100')) await call('DELETE', `/hooks/${h.id}`);
    const settings = await call('GET', '/application/settings');
    const runnerIds = [];
    for (let i = 0; i < 8; i += 1) {
      const r = await fetch(`${service.base}/api/v4/runners`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: settings.runners_registration_token, description: `bench-runner-${tag}-${i}` }),
      });
      if (r.status !== 201) throw new Error(`POST /runners answered ${r.status}`);
      runnerIds.push((await r.json()).id);
    }
    const rssStart = treeMemory(service.child.pid).rssSum;

    log(
      `1. write cost: ${rounds} rounds × (without, with a hook), ${load.connections} connections, ${load.duration} s each`,
    );
    const writes = await writeCost(service, db, call, receiver, runnerIds);

    log(`2. delivery latency: POST /groups at ${rate}/s for ${latencySeconds} s, one hook`);
    const hook = await call('POST', '/hooks', { url: `http://127.0.0.1:${receiver.port}/hook` });
    const lat = await deliveryLatency(service, db, receiver);

    log(
      `3. drain: ${fmt(drainGroups)} POST /groups (${drainConnections} connections) while the receiver answers 503, then 200`,
    );
    const dr = await drain(service, db, receiver);
    await call('DELETE', `/hooks/${hook.id}`);

    console.log(
      `\nevents bench: one service process (WORKERS=0), ${databaseUrl(dataDir) === process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}, seed scale ${scale}; writes at ${load.connections} connections, ${load.duration} s × ${rounds} rounds per side (alternated), medians; SYSTEM_HOOK_RETRY_BASE_MS=200, SYSTEM_HOOK_RETRY_MAX_MS=1000; ${os.cpus().length} cores (${os.cpus()[0].model}), node ${process.version}, load average at start ${loadStart} and now ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}, ${new Date().toISOString().slice(0, 16)}Z`,
    );
    printWriteTable(writes);
    if (jsonOut)
      fs.writeFileSync(
        jsonOut,
        JSON.stringify(
          { writes: writes.map(({ sc, ...r }) => ({ key: sc.key, title: sc.title, ...r })), lat, dr },
          null,
          1,
        ),
      );
    console.log('\n| measure | value | target |');
    console.log('|---|---|---|');
    console.log(
      `| delivery: group_create arrival − end of its POST /groups response, ${fmt(lat.matched)}/${fmt(lat.n)} matched (${(lat.n / lat.elapsed).toFixed(1)} req/s) | p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms (min ${lat.min.toFixed(1)}, max ${lat.max.toFixed(1)}); POST p50 ${lat.respP50.toFixed(1)} ms, p99 ${lat.respP99.toFixed(1)} ms | p99 ≤ 1,000 ms |`,
    );
    console.log(
      `| drain: ${fmt(dr.queued)} events queued (${fmt(dr.groups)} groups in ${dr.queueSecs.toFixed(1)} s, ${fmt(dr.queueRps)}/s) | drained in ${dr.secs.toFixed(1)} s from the switch to 200 (first arrival after ${dr.firstWait.toFixed(2)} s): ${fmt(dr.distinct / dr.secs)} events/s, ${fmt(dr.distinct / Math.max(0.001, dr.flowSecs))} events/s once flowing; ${fmt(dr.distinct)} distinct of ${fmt(dr.received)} received; POST to the receiver ${Number(dr.httpMs).toFixed(1)} ms each (delivery log, last 50); service CPU ${dr.cpuPerEvent.toFixed(2)} ms/event, PostgreSQL ${dr.pgPerEvent.toFixed(2)} ms/event | all delivered |`,
    );
    console.log(
      `| RSS (MB) | after start ${rssStart}; before queueing ${dr.before}, peak while queueing ${dr.queuePeak}; drain start ${dr.start}, peak ${dr.peak}, end ${dr.end} (peak − start ${dr.peak - dr.start}) | peak − start < 50 MB |`,
    );
    log(`drain RSS samples (MB, every 500 ms): ${dr.samples.join(' ')}`);
  } finally {
    if (db) await db.end().catch(() => {});
    await stop(service.child);
    await receiver.close().catch(() => {});
    if (!keepDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
