// The floor comparison's report (docs/benchmarks.md#the-floor-comparison-npm-run-bench): markdown lines that
// the bench prints and writes to bench/RESULTS.md (results.js), one row per scenario with its target.
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** service / floor req/s of a result; GraphQL scenarios with `ratioTo` against that REST scenario's floor. */
function ratioOf(r, byKey) {
  const rest = r.ratioTo && byKey.get(r.ratioTo);
  return { ratio: r.service / (rest ? rest.floor : r.floor), ref: rest ? rest.floor : null };
}

function verdict(r, ratio) {
  if (!r.check.ok) return '**invalid** (bodies differ)';
  if (r.bad) return `**fail** (${r.bad} non-2xx/errors)`;
  return ratio >= r.target ? 'pass' : '**fail**';
}

function floorTable(results) {
  const byKey = new Map(results.map((r) => [r.key, r]));
  const lines = [
    '| scenario | service req/s | floor req/s | service / floor | target | result | service p50 / p99 ms | noise % (svc/floor) | CPU ms/req svc / floor (ratio) | bodies |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  let passed = 0;
  for (const r of results) {
    const { ratio, ref } = ratioOf(r, byKey);
    const result = verdict(r, ratio);
    if (result === 'pass') passed += 1;
    const body = r.check.ok ? 'equal' : `**${r.check.note.split(':')[0]}**`;
    lines.push(
      `| ${r.title} | ${fmt(r.service)} | ${fmt(r.floor)} | ${ratio.toFixed(2)}${ref === null ? '' : ` (vs REST ${fmt(ref)})`} | ≥ ${r.target.toFixed(2)} | ${result} | ${r.p50} / ${r.p99} | ${r.noise} | ${r.cpuS.toFixed(2)} / ${r.cpuF.toFixed(2)} (${(r.cpuF / r.cpuS).toFixed(2)}) | ${body} |`,
    );
  }
  lines.push('', `${passed} of ${results.length} scenarios meet their target.`);
  return lines;
}

/** `12 / 180 / 185` per process (primary first when supervised). */
const perProcess = (m) => m.rss.join(' / ');

function memoryLine(rss) {
  const start = rss[0];
  const peak = rss.reduce((a, m) => (m.rssSum > a.rssSum ? m : a), start);
  const last = rss[rss.length - 1];
  const shape = start.pids.length > 1 ? `primary / ${start.pids.length - 1} workers` : 'one process';
  return `Service memory (MB, ${shape}): RSS at start ${perProcess(start)} (sum ${start.rssSum}, PSS sum ${start.pssSum}); after each service round: max sum ${peak.rssSum} (${perProcess(peak)}), last ${perProcess(last)} (sum ${last.rssSum}, PSS sum ${last.pssSum}).`;
}

module.exports = { floorTable, memoryLine, fmt };
