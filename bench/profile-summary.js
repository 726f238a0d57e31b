#!/usr/bin/env node
// node bench/profile-summary.js FILE.cpuprofile [--top N] [--skip S]
// Summarises a V8 CPU profile (from `npm run bench -- --profile DIR --only KEY`): self time by
// category (package under node_modules, the service's own dist/ code, node internals, GC, idle) and
// the top functions by self time. Idle time is left out of the percentages.
const fs = require('node:fs');

const file = process.argv[2];
const topIdx = process.argv.indexOf('--top');
const top = topIdx > 0 ? Number(process.argv[topIdx + 1]) : 25;
const skipIdx = process.argv.indexOf('--skip');
const skipUs = skipIdx > 0 ? Number(process.argv[skipIdx + 1]) * 1e6 : 0;
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));

const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
let clock = 0;
for (let i = 0; i < prof.samples.length; i += 1) {
  const dt = prof.timeDeltas[i + 1] ?? 0;
  clock += prof.timeDeltas[i];
  if (clock < skipUs) continue;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}

function category(cf) {
  const url = cf.url || '';
  if (!url) return cf.functionName.startsWith('(') ? cf.functionName : '(native/builtin)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/')) return 'service (dist/)';
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

const cats = new Map();
const fns = new Map();
let total = 0;
for (const [id, us] of self) {
  const cf = byId.get(id).callFrame;
  if (cf.functionName === '(idle)') continue;
  total += us;
  const cat = category(cf);
  cats.set(cat, (cats.get(cat) ?? 0) + us);
  const key = `${cf.functionName || '(anonymous)'}  ${cat}${cf.url && !cf.url.includes('node_modules') ? ` ${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}` : ''}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}

const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s of non-idle samples\n\nself time by category:`);
for (const [c, us] of [...cats].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${c}`);
console.log(`\ntop ${top} functions by self time:`);
for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${f}`);
