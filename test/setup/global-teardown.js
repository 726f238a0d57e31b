const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const state = globalThis.__EMBEDDED_PG__;
  if (!state) return;
  await state.handle.stop();
  fs.rmSync(state.dir, { recursive: true, force: true });
};
