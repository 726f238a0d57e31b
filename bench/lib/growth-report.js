// The growth bench's report (docs/growth.md#running-the-growth-bench): markdown lines that the bench prints
// and writes to bench/RESULTS.md (results.js), one row per request with its target and result.
const ms = (x) => (x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US'));
const n = (x) => x.toLocaleString('en-US');

/**
 * The growth target (docs/growth.md#running-the-growth-bench): large ≤ 2 × small or at most 3 ms more;
 * ≤ 3 × for the lists of the non-admin member (`who`), not for an admin's lists of members.
 */
function targetOf(key, who) {
  if (key.includes('page=5000')) return { text: 'none (deep offset, empty at small)' };
  const limit = who === 'member' ? 3 : 2;
  return { limit, text: `≤ ${limit}× or +3 ms` };
}

function verdict(target, small, large) {
  if (target.limit === undefined) return 'not judged';
  return large <= small * target.limit || large - small <= 3 ? 'pass' : '**fail**';
}

/** The growth section: what was measured, one row per request with its target and result, memory. */
function growthLines({ scale, requests, counts, loadSeconds, rows, mem }) {
  const lines = [
    `Small: scale ${scale}. Large: the same plus bulk rows, in all ${n(counts.groups)} groups, ${n(counts.projects)} projects, ${n(counts.users)} users and ${n(counts.jobs)} jobs (bulk load this run: ${loadSeconds} s). One client, p50 and p99 of ${requests} sequential requests per list and side after 3 warm-ups.`,
    '',
    '| request | small p50 / p99 ms | large p50 / p99 ms | growth (large / small p50) | target | result |',
    '|---|---|---|---|---|---|',
  ];
  let judged = 0;
  const failed = [];
  for (const r of rows) {
    const target = targetOf(r.key, r.who);
    const result = verdict(target, r.small.p50, r.large.p50);
    if (target.limit !== undefined) judged += 1;
    if (result !== 'pass' && target.limit !== undefined) failed.push(r.key);
    lines.push(
      `| ${r.key}${r.path ? ` \`${r.path}\`` : ''} | ${ms(r.small.p50)} / ${ms(r.small.p99)} | ${ms(r.large.p50)} / ${ms(r.large.p99)} | ${(r.large.p50 / r.small.p50).toFixed(2)}× | ${target.text} | ${result} |`,
    );
  }
  const memOk = mem.every((m) => m.rssSum < 250);
  lines.push(
    '',
    `${judged - failed.length} of ${judged} judged requests within their target${failed.length ? `; over: ${failed.join(', ')}` : ''}.`,
    '',
    `Resident memory (MB): small ${mem[0].rssSum}, large ${mem[1].rssSum} (target < 250 per service: ${memOk ? 'pass' : '**fail**'}).`,
  );
  return lines;
}

module.exports = { growthLines, ms };
