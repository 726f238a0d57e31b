import type { ContractStep } from '../../src/core/db/contract-step';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { ormModelOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { changedSince, migrationFilesAt, migrationNamesAt, previousRelease } from './previous-release';
import { compareVersions, contractingStatements, policyProblems, sqlOf } from './migration-statements';

// Expand first, contract one release later (docs/operations.md#upgrades-and-rollbacks).

type MigrationClass = (new (...args: never[]) => { up(): Promise<void> | void }) & { contract?: ContractStep };
const ALL = [...MIGRATIONS, ...ormModelOf(MODULES).migrations] as { name: string; class: MigrationClass }[];

describe('migrations added since the previous release', () => {
  it('only expand, or contract what the previous release no longer uses', async () => {
    const previous = previousRelease();
    const shipped = migrationNamesAt(previous.commit);
    // The previous release's migrations all still run here, under the same names.
    expect([...shipped].filter((n) => !ALL.some((m) => m.name === n))).toEqual([]);
    const added = ALL.filter((m) => !shipped.has(m.name));
    const problems: string[] = [];
    for (const m of added)
      problems.push(
        ...policyProblems(m.name, contractingStatements(await sqlOf(m.class)), m.class.contract, {
          version: previous.version,
          migrations: shipped,
        }),
      );
    expect(problems).toEqual([]);
  });

  it("leave the previous release's migrations as they shipped (a database that ran one never sees an edit)", () => {
    const { commit } = previousRelease();
    expect(changedSince(commit, migrationFilesAt(commit))).toEqual([]);
  });

  it('run after every migration of the previous release (name order is run order)', () => {
    const shipped = migrationNamesAt(previousRelease().commit);
    const lastShipped = [...shipped].sort().at(-1)!;
    const early = ALL.filter((m) => !shipped.has(m.name) && m.name < lastShipped).map((m) => m.name);
    expect(early).toEqual([]);
  });
});

describe('contracting statements', () => {
  it.each([
    ['alter table application_settings drop column captcha_private_key', 'drops a column'],
    ['ALTER TABLE runners DROP token', 'drops a column'],
    ['drop table if exists old_things', 'drops a table'],
    ['alter table users rename column name to full_name', 'renames a table, column or constraint'],
    ['alter table users rename to people', 'renames a table, column or constraint'],
    ['alter table users alter column email set not null', 'sets NOT NULL on an existing column'],
    ['alter table users alter column id type bigint', "changes a column's type"],
    ['alter table users alter column state drop default', "drops a column's default"],
    ['alter table users add column locale text not null', 'adds a NOT NULL column without a default'],
    ["alter table users add constraint users_email_check check (email <> '')", 'adds a constraint'],
    ['create unique index users_email_uq on users (lower(email))', 'adds a unique index'],
    ['drop function if exists cache_notify()', 'drops a database object'],
    ['drop trigger features_cache_notify on features', 'drops a database object'],
    [
      'update application_settings set captcha_private_key = null where captcha_private_key_sealed is not null',
      'empties a column',
    ],
    ["update application_settings set a = 1, captcha_private_key = ''", 'empties a column'],
    ['truncate rate_limit_counters', 'empties a table'],
  ])('%s: %s', (sql, why) => {
    const found = contractingStatements([sql]);
    expect(found).toHaveLength(1);
    expect(found[0].why.startsWith(why)).toBe(true);
  });

  it.each([
    'alter table application_settings add column captcha_private_key_sealed text null',
    "alter table users add column locale text not null default 'en'",
    'alter table users add column if not exists last_activity_on date',
    'alter table users alter column email drop not null',
    'alter table users drop constraint users_email_check',
    'create index concurrently if not exists users_created_at on users (created_at, id)',
    'drop index if exists projects_name_trgm',
    'update projects set forks_count = 0 where forks_count <> 0',
    'update pages_domains set domain = lower(domain) where domain <> lower(domain)',
    'create table widgets (id serial primary key, name text not null); alter table widgets add constraint widgets_name_uq unique (name)',
    'create or replace function cache_notify() returns trigger language plpgsql as $$ begin return null; end $$',
    'create trigger features_cache_notify after insert or update or delete or truncate on features for each statement execute function cache_notify()',
    'drop trigger if exists settings_cache on application_settings; create trigger settings_cache after update on application_settings for each statement execute function cache_notify()',
  ])('expands: %s', (sql) => {
    expect(contractingStatements([sql])).toEqual([]);
  });

  it('allows a contract step only for an expand step of the previous release, unused there', () => {
    const drop = contractingStatements(['alter table application_settings drop column captcha_private_key']);
    const previous = {
      version: '0.2.0',
      migrations: new Set(['Migration20261123100000_application_settings_secrets']),
    };
    expect(policyProblems('Migration1_x', drop, undefined, previous)[0]).toMatch(/without a contract step/);
    const ok = { expandedBy: 'Migration20261123100000_application_settings_secrets', unusedSince: '0.2.0' };
    expect(policyProblems('Migration1_x', drop, ok, previous)).toEqual([]);
    // The replacement is only now being added: the previous release still reads the column.
    expect(policyProblems('Migration1_x', drop, { ...ok, expandedBy: 'Migration2_new' }, previous)[0]).toMatch(
      /does not have/,
    );
    // The previous release still uses it.
    expect(policyProblems('Migration1_x', drop, { ...ok, unusedSince: '0.3.0' }, previous)[0]).toMatch(
      /still runs beside it/,
    );
    expect(compareVersions('0.10.0', '0.9.1')).toBeGreaterThan(0);
    expect(compareVersions('0.2.0+build.1', '0.2.0')).toBe(0);
  });

  it("reads a migration's SQL without a database (addSql and execute)", async () => {
    class Example {
      queries: string[] = [];
      constructor(private driver: { execute(sql: string): Promise<unknown[]> }) {}
      addSql(sql: string) {
        this.queries.push(sql);
      }
      getQueries() {
        return this.queries;
      }
      execute(sql: string) {
        return this.driver.execute(sql);
      }
      async up() {
        this.addSql('alter table t add column c text null');
        for (;;) {
          const rows = await this.execute('select id from t where c is null limit 100');
          if (rows.length === 0) break;
        }
      }
    }
    expect(await sqlOf(Example as never)).toEqual([
      'select id from t where c is null limit 100',
      'alter table t add column c text null',
    ]);
  });
});
