// Memory of the measured processes from /proc (Linux): RSS, and PSS (shared pages split between the
// processes that map them, so the sum over a supervisor's processes does not count node's code N times).
const fs = require('node:fs');

function statusKb(file, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const mb = (kb) => (kb === null ? null : Math.round(kb / 1024));

function rssMb(pid) {
  return mb(statusKb(`/proc/${pid}/status`, 'VmRSS'));
}

function pssMb(pid) {
  return mb(statusKb(`/proc/${pid}/smaps_rollup`, 'Pss'));
}

/** `pid` and its children running the same node binary (a cluster's primary and workers; not PostgreSQL). */
function nodeTree(pid) {
  let exe;
  try {
    exe = fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return [];
  }
  const out = [pid];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && fs.readlinkSync(`/proc/${entry}/exe`) === exe) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** RSS and PSS per process of the tree (first the root: a supervisor's primary) and their sums. */
function treeMemory(pid) {
  const pids = nodeTree(pid);
  const rss = pids.map(rssMb).filter((v) => v !== null);
  const pss = pids.map(pssMb).filter((v) => v !== null);
  return { pids, rss, pss, rssSum: rss.reduce((a, b) => a + b, 0), pssSum: pss.reduce((a, b) => a + b, 0) };
}

function sampleRss(pid, everyMs) {
  const samples = [];
  const timer = setInterval(() => {
    const m = treeMemory(pid);
    if (m.rss.length > 0) samples.push({ t: Date.now(), mb: m.rssSum, perProcess: m.rss });
  }, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

module.exports = { rssMb, pssMb, nodeTree, treeMemory, sampleRss };
