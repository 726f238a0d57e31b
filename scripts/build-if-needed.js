#!/usr/bin/env node
// Builds dist/ with tsc when it is missing or older than any file under src/ (npm start/seed/bench call this).
// A checkout's convenience: a release is built once (`npm run build`) and started as `node dist/main.js`,
// which compiles nothing (docs/operations.md#process-managers-and-containers). Without src/ (a release
// that ships dist/ only) there is nothing to build from, so nothing is checked.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const marker = path.join(root, 'dist', 'main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

if (!fs.existsSync(path.join(root, 'src', 'main.ts'))) process.exit(0);

const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const sources = Math.max(newestMtime(path.join(root, 'src')), fs.statSync(path.join(root, 'package.json')).mtimeMs);
if (built < sources) {
  process.stderr.write(
    'building dist/ with tsc (src/ is newer; about a minute on 2 cores). A release runs `npm run build` once and starts `node dist/main.js`.\n',
  );
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')],
    { stdio: 'inherit', cwd: root },
  );
  fs.utimesSync(marker, new Date(), new Date());
}
// The checkout's commit, also when only the commit changed since the last build (git commit of a built tree).
execFileSync(process.execPath, [path.join(__dirname, 'write-build-info.js')], { stdio: 'inherit', cwd: root });
