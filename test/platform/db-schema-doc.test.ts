import path from 'node:path';
import { Client } from 'pg';
import { initOrm, migrate } from '../../src/core/db/orm';
import { dumpSchema } from '../../src/core/db/schema-dump';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { expectGeneratedFile } from './generated-file';

/**
 * docs/schema.sql against a database of its own, migrated from empty: the worker's shared test
 * database may carry what other test files add to its schema (fault-injection triggers).
 */
async function withAdmin<T>(base: string, fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

async function freshSchemaText(): Promise<string> {
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error('TEST_PG_URL is not set: run the tests through jest (globalSetup starts PostgreSQL)');
  const name = `app_schema_doc_${process.env.JEST_WORKER_ID ?? '1'}`;
  await withAdmin(base, async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  const orm = await initOrm({ clientUrl: url.toString(), poolMax: 2, model: ormModelOf(MODULES) });
  try {
    await migrate(orm);
    return await dumpSchema(orm.em.fork());
  } finally {
    await orm.close(true);
    await withAdmin(base, (admin) => admin.query(`drop database if exists ${name} with (force)`));
  }
}

describe('docs/schema.sql', () => {
  let text: string;
  beforeAll(async () => {
    text = await freshSchemaText();
  }, 120_000);

  it('is in sync with the migrations (run `npm run docs:schema`, which needs a database, after adding a migration)', () => {
    expectGeneratedFile(
      path.join(__dirname, '../../docs/schema.sql'),
      text,
      'npm run docs:schema',
      'it migrates and reads DATABASE_URL, or the embedded PostgreSQL under DATA_DIR, as `npm start` does',
    );
  });

  it('describes the tables and nothing volatile', () => {
    expect(text).toMatch(/^CREATE TABLE users \($/m);
    expect(text).toMatch(/^CREATE TABLE ci_runners \($/m);
    expect(text).not.toMatch(/mikro_orm_migrations|PostgreSQL \d|OWNER TO|GRANT |\b\d{4}-\d\d-\d\dT/);
  });
});
