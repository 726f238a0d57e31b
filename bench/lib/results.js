// bench/RESULTS.md is written by the bench (docs/benchmarks.md#results). Each kind of run owns one
// section between its two marker comments and replaces it with its latest run: `npm run bench` the floor
// comparison (with the keyset and soak figures when asked for), `npm run bench -- --large` the growth
// table. The header is constant; another kind's section is kept as it is. Nothing else is kept.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_FILE = path.join(ROOT, 'bench', 'RESULTS.md');

/** Sections in file order: marker name and title. */
const SECTIONS = [
  { name: 'floor', title: 'Floor comparison' },
  { name: 'growth', title: 'Growth' },
];

const HEADER = `# Benchmark results (latest runs)

Written by the bench: \`npm run bench\` replaces the floor comparison, \`npm run bench -- --large\` the
growth table, each with its latest run only (\`--no-results\` leaves the file alone). Do not edit by hand:
how the benchmarks work, their targets and how to read them are in [docs/benchmarks.md](../docs/benchmarks.md)
and [docs/growth.md](../docs/growth.md). A run on a shared machine moves with its load: the load average
is recorded with each run, and ratios and CPU per request compare across runs better than req/s or ms.
`;

const marker = (name, end) => `<!-- bench:${name}:${end ? 'end' : 'start'} -->`;

/** `2026-11-28 05:10Z` */
const stamp = (d) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}Z`;

/** `2026-11-28 05:10Z to 05:40Z` (the end's date only when it is another day). */
function span(a, b) {
  const [from, to] = [stamp(a), stamp(b)];
  return `${from} to ${from.slice(0, 10) === to.slice(0, 10) ? to.slice(11) : to}`;
}

function git(args) {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

async function serverVersion(dbUrl) {
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  try {
    return (await db.query('show server_version')).rows[0].server_version;
  } finally {
    await db.end();
  }
}

/** What a run records about itself at its start: command, time, machine, versions, commit. */
function startFacts(argv) {
  return {
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    started: new Date(),
    load: os.loadavg()[0],
  };
}

/** The facts line of a section: the run's times and load, the machine, Node, PostgreSQL and the commit. */
async function factsLines(facts, dbUrl) {
  const cpus = os.cpus();
  const model = cpus.length ? cpus[0].model.replace(/\s+/g, ' ').trim() : 'unknown CPU';
  const commit = git(['rev-parse', '--short', 'HEAD']);
  // the results file itself does not count: a growth run after a floor run finds it changed
  const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/RESULTS.md'])
    ? ' with uncommitted changes'
    : '';
  const pg = await serverVersion(dbUrl).catch(() => 'unknown');
  const ended = new Date();
  return [
    `Command: \`${facts.command}\``,
    '',
    `Run: ${span(facts.started, ended)}; load average (1 min) ${facts.load.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
    `Machine: ${cpus.length} CPUs (${model}), ${Math.round(os.totalmem() / 2 ** 30)} GB memory, ${os.type()} ${os.release()}; Node ${process.version}; PostgreSQL ${pg}; commit ${commit || 'unknown'}${dirty}.`,
  ];
}

/** The text of each section now in `file`, by name (marker to marker, markers excluded). */
function readSections(file) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const out = new Map();
  for (const { name } of SECTIONS) {
    const a = text.indexOf(marker(name, false));
    const b = text.indexOf(marker(name, true));
    if (a >= 0 && b > a) out.set(name, text.slice(a + marker(name, false).length, b).trim());
  }
  return out;
}

/** Replaces section `name` of the results file with `lines` (markdown), keeping the other sections. */
function writeSection(name, lines, file = DEFAULT_FILE) {
  const sections = readSections(file);
  sections.set(name, lines.join('\n').trim());
  const parts = [HEADER];
  for (const s of SECTIONS) {
    const body = sections.get(s.name) ?? '_No run recorded yet._';
    parts.push(`## ${s.title}\n\n${marker(s.name, false)}\n${body}\n${marker(s.name, true)}\n`);
  }
  fs.writeFileSync(file, parts.join('\n'));
  return file;
}

/** `--results FILE` (default bench/RESULTS.md), or null with `--no-results`. */
function resultsFile(argv) {
  if (argv.includes('--no-results')) return null;
  const i = argv.indexOf('--results');
  return i >= 0 && argv[i + 1] && !argv[i + 1].startsWith('--') ? path.resolve(argv[i + 1]) : DEFAULT_FILE;
}

module.exports = { startFacts, factsLines, writeSection, resultsFile };
