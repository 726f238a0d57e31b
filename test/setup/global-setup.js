// One PostgreSQL per test run: DATABASE_URL when set, otherwise the service's own supervised embedded
// PostgreSQL (src/core/db/embedded) in a temp dir, which also works as root from a private checkout.
// The suite connects as a non-superuser role with CREATEDB (one database per jest worker), like the
// service itself runs as a non-superuser owner of its database.
// No MikroORM here: this runs once per jest run, before the workers (docs/testing.md#duration-and-isolation).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { startOrReuseEmbedded } = require('../../src/core/db/embedded/embedded-postgres.ts');

const TEST_ROLE = { user: 'app_test', password: 'app_test' };

async function createTestRole(adminUrl) {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `create role ${TEST_ROLE.user} login nosuperuser createdb nocreaterole password '${TEST_ROLE.password}'`,
    );
  } finally {
    await admin.end();
  }
}

module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_PG_URL = process.env.DATABASE_URL;
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-test-'));
  const quiet = {
    info: () => {},
    warn: (m) => process.stderr.write(`postgres: ${m}\n`),
    error: (m) => process.stderr.write(`postgres: ${m}\n`),
  };
  const handle = await startOrReuseEmbedded({
    dataDir: dir,
    ephemeral: true,
    log: quiet,
    onFatal: (m) => process.stderr.write(`${m}\n`),
  });
  const creds = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8'));
  const url = new URL(handle.url);
  await createTestRole(`postgres://${creds.user}:${encodeURIComponent(creds.password)}@${url.host}/postgres`);
  globalThis.__EMBEDDED_PG__ = { handle, dir };
  process.env.TEST_PG_URL = `postgres://${TEST_ROLE.user}:${TEST_ROLE.password}@${url.host}/postgres`;
};
