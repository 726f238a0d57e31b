// RSS of a process from /proc (Linux), sampled on an interval.
const fs = require('node:fs');

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function sampleRss(pid, everyMs) {
  const samples = [];
  const timer = setInterval(() => {
    const v = rssMb(pid);
    if (v !== null) samples.push({ t: Date.now(), mb: v });
  }, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

module.exports = { rssMb, sampleRss };
