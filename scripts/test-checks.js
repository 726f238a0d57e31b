#!/usr/bin/env node
// npm test's steps before jest, as two lines run side by side (each step is one single-threaded
// process, so on two cores the pair takes about as long as the longer line):
//   type-check (tsc --noEmit), then dist/ for the suites that start the service (scripts/build-if-needed.js);
//   lint (eslint), then the format check (prettier --check).
// A line stops at its first failing step; the checks fail when any step failed. Each step's output is
// printed in one piece when it ends, so the two lines do not interleave.
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
/** A package's command (its package.json `bin`), run with this node as npm would run it. */
function bin(pkg, name) {
  const manifest = require.resolve(`${pkg}/package.json`, { paths: [root] });
  const { bin: entry } = require(manifest);
  return path.join(path.dirname(manifest), typeof entry === 'string' ? entry : entry[name]);
}

const LINES = [
  [
    { name: 'typecheck', args: [bin('typescript', 'tsc'), '-p', 'tsconfig.json', '--noEmit'] },
    { name: 'build dist/', args: [path.join(__dirname, 'build-if-needed.js')] },
  ],
  [
    { name: 'lint', args: [bin('eslint', 'eslint'), '.'] },
    { name: 'format:check', args: [bin('prettier', 'prettier'), '--check', '.'] },
  ],
];

function run(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, step.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => out.push(c));
    child.on('error', (err) => out.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const took = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${step.name}: ${ok ? 'ok' : `failed (${signal ?? `exit ${code}`})`} in ${took} s\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(ok);
    });
  });
}

async function runLine(steps) {
  for (const step of steps) if (!(await run(step))) return false;
  return true;
}

Promise.all(LINES.map(runLine)).then((results) => {
  process.exitCode = results.every(Boolean) ? 0 : 1;
});
