// Load generation (autocannon), medians, and the body check of service vs floor.
const fs = require('node:fs');
const autocannon = require('autocannon');
const { nodeTree } = require('./rss');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Spread of the rounds around their median, in percent: the noise of a figure. */
const spread = (xs) => (xs.length < 2 ? 0 : Math.round(((Math.max(...xs) - Math.min(...xs)) / median(xs)) * 100));

function headersOf(req, token) {
  const h = { 'content-type': 'application/json' };
  if (req.token !== null) h['PRIVATE-TOKEN'] = req.token || token;
  return h;
}

function hammer(base, req, token, { connections, duration }) {
  return new Promise((resolve, reject) => {
    const opts = {
      url: `${base}${req.path}`,
      connections,
      duration,
      headers: headersOf(req, token),
      method: req.method || 'GET',
      body: req.body,
    };
    autocannon(opts, (err, r) => {
      if (err) return reject(err);
      resolve({
        rps: r.requests.average,
        total: r.requests.total,
        p50: r.latency.p50,
        p99: r.latency.p99,
        bad: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, 100 ticks a second). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // exited meanwhile
  }
}

/** CPU ms of `pid` and of its node children (a cluster's primary and workers), per pid. */
function treeCpu(pid) {
  return new Map(nodeTree(pid).map((p) => [p, cpuMs(p)]));
}

/** One measurement plus the CPU milliseconds the server (all its processes) spent per answered request. */
async function hammerCpu(base, pid, req, token, opts) {
  const before = treeCpu(pid);
  const r = await hammer(base, req, token, opts);
  let used = 0;
  for (const [p, ms] of treeCpu(pid)) used += ms - (before.get(p) ?? 0);
  return { ...r, cpu: used / Math.max(1, r.total) };
}

async function fetchBody(base, req, token) {
  const res = await fetch(`${base}${req.path}`, {
    method: req.method || 'GET',
    headers: headersOf(req, token),
    body: req.body,
  });
  return { status: res.status, text: await res.text() };
}

/** Byte comparison of both answers; describes the first difference when there is one. */
async function compareBodies(service, floor, req, token, mask) {
  const a = await fetchBody(service, req, token);
  const b = await fetchBody(floor, req, token);
  if (mask) {
    a.text = a.text.replace(mask, '$1…');
    b.text = b.text.replace(mask, '$1…');
  }
  if (a.status !== 200 || b.status !== 200) return { ok: false, note: `status service ${a.status}, floor ${b.status}` };
  if (a.text === b.text) return { ok: true, note: `equal (${a.text.length} B)` };
  let i = 0;
  while (i < a.text.length && a.text[i] === b.text[i]) i += 1;
  return {
    ok: false,
    note: `MISMATCH at byte ${i}: service …${a.text.slice(i, i + 60)}… floor …${b.text.slice(i, i + 60)}…`,
  };
}

module.exports = { median, spread, hammer, hammerCpu, fetchBody, compareBodies, treeCpu };
