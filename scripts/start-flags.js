// The node flags of package.json's start script (heap sizing and GC, docs/operations.md#memory):
// read by the bench (bench/lib/processes.js) and the tests that spawn the service, so both run it
// as `npm start` does.
const fs = require('node:fs');
const path = require('node:path');

function startFlags() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  return pkg.scripts.start.split(/\s+/).filter((w) => w.startsWith('--'));
}

module.exports = { startFlags };
