import crypto from 'node:crypto';
import type { Client } from 'pg';

/**
 * Whole-database row transfer without PostgreSQL's client tools, shared by `npm run db:copy-embedded`
 * (copy-database.ts) and `npm run backup` / `restore` (backup-file.ts): rows travel as JSON text
 * (`to_jsonb(row)` out, `jsonb_populate_record` in), which keeps every value exact (bigints,
 * timestamps to the microsecond, arrays, bytea) and matches columns by name, whatever the server's
 * major version.
 */

/** The migrations' own list: each side has it from its migration run. */
export const SKIPPED_TABLES = new Set(['mikro_orm_migrations']);

export interface Column {
  name: string;
  type: string;
}

export const ident = (c: Client, name: string) => c.escapeIdentifier(name);
export const qualified = (c: Client, table: string) => `public.${ident(c, table)}`;

/**
 * The session settings that fix how values print as JSON (time zone, interval style), set the same on
 * both sides so the text of a row read back equals the text written out (the checksums compare it).
 */
export async function fixRowText(c: Client): Promise<void> {
  await c.query(`set timezone = 'UTC'; set intervalstyle = 'postgres'; set extra_float_digits = 1`);
}

/** Base tables of `public` and their writable (not generated) columns, sorted by name. */
export async function tablesOf(c: Client): Promise<Map<string, Column[]>> {
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
    if (SKIPPED_TABLES.has(r.table)) continue;
    tables.set(r.table, [...(tables.get(r.table) ?? []), { name: r.column, type: r.type }]);
  }
  return tables;
}

/** The tables whose columns differ between two schemas (missing on one side included), sorted. */
export function differingTables(a: Map<string, Column[]>, b: Map<string, Column[]>): string[] {
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.filter((t) => JSON.stringify(a.get(t)) !== JSON.stringify(b.get(t)));
}

/** True when `public.users` exists and has a row: a database in use, never a restore or copy target. */
export async function hasUsers(c: Client): Promise<boolean> {
  const exists = await c.query<{ t: string | null }>(`select to_regclass('public.users')::text as t`);
  if (exists.rows[0].t === null) return false;
  const { rows } = await c.query<{ n: boolean }>('select exists (select 1 from public.users) as n');
  return rows[0].n;
}

/**
 * Makes the target's foreign keys deferrable and deferred (rows arrive in any order, and reference each
 * other in cycles: users and namespaces) and empties `tables` (what the migrations put there, the
 * settings row, makes way). Call inside the loading transaction; `finish` checks every key and makes
 * them immediate again. A table owner may do this, no superuser needed.
 */
export async function prepareLoad(target: Client, tables: string[]): Promise<{ finish: () => Promise<void> }> {
  const { rows: fks } = await target.query<{ table: string; name: string }>(
    `select c.conrelid::regclass::text as table, c.conname as name
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = 'public' and c.contype = 'f' and not c.condeferrable`,
  );
  for (const fk of fks)
    await target.query(
      `alter table ${fk.table} alter constraint ${ident(target, fk.name)} deferrable initially deferred`,
    );
  if (tables.length > 0) await target.query(`truncate ${tables.map((t) => qualified(target, t)).join(', ')}`);
  return {
    finish: async () => {
      await target.query('set constraints all immediate');
      for (const fk of fks)
        await target.query(`alter table ${fk.table} alter constraint ${ident(target, fk.name)} not deferrable`);
    },
  };
}

/** Inserts rows given as `to_jsonb` text into `table` (its writable `columns`). */
export async function insertJsonRows(target: Client, table: string, columns: Column[], rows: string[]): Promise<void> {
  if (rows.length === 0) return;
  const t = qualified(target, table);
  const list = columns.map((col) => ident(target, col.name)).join(', ');
  await target.query(
    `insert into ${t} (${list}) select ${columns.map((col) => `r.${ident(target, col.name)}`).join(', ')}
       from unnest($1::text[]) j, lateral jsonb_populate_record(null::${t}, j::jsonb) r`,
    [rows],
  );
}

/**
 * A table's rows as `to_jsonb` text in batches of `batch`, through a cursor (memory stays bounded):
 * call inside a transaction.
 */
export async function* jsonRowsOf(source: Client, table: string, batch = 1000): AsyncGenerator<string[]> {
  await source.query(
    `declare rows_out no scroll cursor for select to_jsonb(r)::text as j from ${qualified(source, table)} r`,
  );
  try {
    for (;;) {
      const { rows } = await source.query<{ j: string }>(`fetch ${batch} from rows_out`);
      if (rows.length === 0) return;
      yield rows.map((r) => r.j);
    }
  } finally {
    await source.query('close rows_out');
  }
}

/**
 * A table's order-independent checksum: the sum of each row's hash (the first 60 bits of the md5 of
 * its `to_jsonb` text) as a decimal string. `rowHash` computes one row's part in this process,
 * `checksumOf` the whole table's in the database; both give the same number for the same rows.
 */
export const rowHash = (json: string): bigint =>
  BigInt(`0x${crypto.createHash('md5').update(json, 'utf8').digest('hex').slice(0, 15)}`);

export async function checksumOf(c: Client, table: string): Promise<{ rows: number; checksum: string }> {
  const { rows } = await c.query<{ n: string; sum: string | null }>(
    `select count(*) as n, sum(('x' || left(md5(to_jsonb(r)::text), 15))::bit(60)::bigint::numeric)::text as sum
       from ${qualified(c, table)} r`,
  );
  return { rows: Number(rows[0].n), checksum: rows[0].sum ?? '0' };
}

export interface SequencePosition {
  name: string;
  last_value: string;
  is_called: boolean;
}

/** Every sequence of `public` and where it stands. */
export async function sequencePositions(c: Client): Promise<SequencePosition[]> {
  const { rows: seqs } = await c.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const out: SequencePosition[] = [];
  for (const { name } of seqs) {
    const { rows } = await c.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text, is_called from ${qualified(c, name)}`,
    );
    out.push({ name, ...rows[0] });
  }
  return out;
}

/** Each sequence continues where it stood at the source, so new ids do not collide with loaded ones. */
export async function setSequences(target: Client, positions: SequencePosition[]): Promise<void> {
  for (const p of positions)
    await target.query('select setval($1::regclass, $2::bigint, $3)', [
      qualified(target, p.name),
      p.last_value,
      p.is_called,
    ]);
}
