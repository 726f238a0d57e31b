const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const handle = globalThis.__EMBEDDED_PG__;
  if (!handle) return;
  await handle.pg.stop();
  fs.rmSync(handle.dir, { recursive: true, force: true });
};
