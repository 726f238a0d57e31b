import { Client } from 'pg';

/**
 * Copies every row of one migrated database into another migrated at the same version (`npm run
 * db:copy-embedded`, docs/operations.md#moving-to-a-shared-postgresql): one read-only snapshot on the
 * source, one transaction on the target, so the target ends with all of it or none of it.
 *
 * Rows travel as JSON text (`to_jsonb(row)` there, `jsonb_populate_record` here), which keeps every
 * value exact (bigints, timestamps to the microsecond, arrays, bytea) and matches columns by name. The
 * target's foreign keys are made deferrable for the copy (rows reference each other in cycles: users and
 * namespaces), checked before the commit and restored: a table owner may do this, no superuser needed.
 */

/** The migrations' own list: each side already has it from its migration run. */
const SKIPPED = new Set(['mikro_orm_migrations']);
const BATCH = 1000;

export interface CopyReport {
  /** Rows per table, as counted on the target before the commit. */
  rows: Record<string, number>;
  sequences: number;
}

interface Column {
  name: string;
  type: string;
}

/** Base tables of `public` and their writable (not generated) columns, sorted by name. */
async function tablesOf(c: Client): Promise<Map<string, Column[]>> {
  const { rows } = await c.query<{ table: string; column: string; type: string }>(
    `select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname, a.attname`,
  );
  const tables = new Map<string, Column[]>();
  for (const r of rows) {
    if (SKIPPED.has(r.table)) continue;
    tables.set(r.table, [...(tables.get(r.table) ?? []), { name: r.column, type: r.type }]);
  }
  return tables;
}

const same = (a: Column[] | undefined, b: Column[] | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Refuses unless both databases have the same tables and columns (the same version of the service). */
function assertSameSchema(source: Map<string, Column[]>, target: Map<string, Column[]>): void {
  const names = [...new Set([...source.keys(), ...target.keys()])].sort();
  const differ = names.filter((t) => !same(source.get(t), target.get(t)));
  if (differ.length > 0)
    throw new Error(
      `the source and the target differ in tables or columns (${differ.slice(0, 5).join(', ')}): run both on the same version of the service`,
    );
}

const ident = (c: Client, name: string) => c.escapeIdentifier(name);

/** Copies all rows and sequence positions from `sourceUrl` into `targetUrl`; throws (target unchanged) on any mismatch. */
export async function copyDatabase(sourceUrl: string, targetUrl: string): Promise<CopyReport> {
  const source = new Client({ connectionString: sourceUrl });
  const target = new Client({ connectionString: targetUrl });
  await source.connect();
  try {
    await target.connect();
    try {
      const tables = await tablesOf(source);
      assertSameSchema(tables, await tablesOf(target));
      await source.query('begin transaction isolation level repeatable read read only');
      await target.query('begin');
      const rows = await copyRows(source, target, tables);
      const sequences = await copySequences(source, target);
      await target.query('commit');
      return { rows, sequences };
    } catch (e) {
      await target.query('rollback').catch(() => undefined);
      throw e;
    } finally {
      await target.end();
    }
  } finally {
    await source.end();
  }
}

async function copyRows(
  source: Client,
  target: Client,
  tables: Map<string, Column[]>,
): Promise<Record<string, number>> {
  // Foreign keys checked at the end, not per statement: rows arrive in any order.
  const { rows: fks } = await target.query<{ table: string; name: string }>(
    `select c.conrelid::regclass::text as table, c.conname as name
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = 'public' and c.contype = 'f' and not c.condeferrable`,
  );
  for (const fk of fks)
    await target.query(
      `alter table ${fk.table} alter constraint ${ident(target, fk.name)} deferrable initially deferred`,
    );
  const names = [...tables.keys()];
  // What the migrations put there (the settings row) makes way for the source's rows.
  await target.query(`truncate ${names.map((t) => `public.${ident(target, t)}`).join(', ')}`);
  const counts: Record<string, number> = {};
  for (const [table, columns] of tables) {
    const t = `public.${ident(source, table)}`;
    const list = columns.map((col) => ident(target, col.name)).join(', ');
    await source.query(`declare rows_out no scroll cursor for select to_jsonb(r)::text as j from ${t} r`);
    for (;;) {
      const batch = await source.query<{ j: string }>(`fetch ${BATCH} from rows_out`);
      if (batch.rows.length === 0) break;
      await target.query(
        `insert into ${t} (${list}) select ${columns.map((col) => `r.${ident(target, col.name)}`).join(', ')}
           from unnest($1::text[]) j, lateral jsonb_populate_record(null::${t}, j::jsonb) r`,
        [batch.rows.map((r) => r.j)],
      );
    }
    await source.query('close rows_out');
    const [there, here] = await Promise.all([
      source.query<{ n: string }>(`select count(*) as n from ${t}`),
      target.query<{ n: string }>(`select count(*) as n from ${t}`),
    ]);
    if (there.rows[0].n !== here.rows[0].n)
      throw new Error(`${table}: ${there.rows[0].n} rows in the source, ${here.rows[0].n} copied`);
    counts[table] = Number(here.rows[0].n);
  }
  await target.query('set constraints all immediate');
  for (const fk of fks)
    await target.query(`alter table ${fk.table} alter constraint ${ident(target, fk.name)} not deferrable`);
  return counts;
}

/** Each sequence continues where the source's stands, so new ids do not collide with copied ones. */
async function copySequences(source: Client, target: Client): Promise<number> {
  const { rows: seqs } = await source.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  for (const { name } of seqs) {
    const seq = `public.${ident(source, name)}`;
    const { rows } = await source.query<{ last_value: string; is_called: boolean }>(
      `select last_value, is_called from ${seq}`,
    );
    await target.query('select setval($1::regclass, $2::bigint, $3)', [seq, rows[0].last_value, rows[0].is_called]);
  }
  return seqs.length;
}
