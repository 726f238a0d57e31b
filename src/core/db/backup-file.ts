import fs from 'node:fs';
import readline from 'node:readline';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { Client } from 'pg';
import {
  checksumOf,
  differingTables,
  fixRowText,
  insertJsonRows,
  jsonRowsOf,
  prepareLoad,
  rowHash,
  sequencePositions,
  setSequences,
  tablesOf,
  type Column,
  type SequencePosition,
} from './table-rows';

/**
 * The data backup file of `npm run backup` / `npm run restore` (docs/operations.md#backup): gzip of
 * lines, each a one-letter kind and JSON.
 *   M  the manifest: format, the applied migrations, tables and their columns, the service's release,
 *      when, and the database's secrets key check (never the key: docs/operations.md#keys)
 *   T  a table starts: {"table": name}
 *   R  one row of it, `to_jsonb` text
 *   S  the sequences' positions
 *   E  the end: rows and checksum per table (table-rows.ts `checksumOf`); a file without it is incomplete
 * Everything is read in one REPEATABLE READ READ ONLY transaction (one snapshot) while the service may
 * serve and write; rows stream through a cursor, so memory stays bounded whatever the table's size.
 */
export const BACKUP_FORMAT = 'gitlab-admin-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  service: { version: string; revision: string };
  /** Names of the applied migrations, in the order they ran. */
  migrations: string[];
  tables: Record<string, Column[]>;
  /** The stored secrets key check (an HMAC of a fixed label), or null when none was stored yet. */
  key_check: string | null;
}

export interface TableSum {
  rows: number;
  checksum: string;
}

export interface BackupReport {
  manifest: BackupManifest;
  tables: Record<string, TableSum>;
  bytes: number;
}

/** Writes `line` to a stream, waiting while its buffer is full. */
async function put(out: NodeJS.WritableStream, line: string): Promise<void> {
  if (!out.write(line)) await once(out, 'drain');
}

/** Reads the database at `url` into `file` (written as `file.partial`, mode 0600, renamed when complete). */
export async function writeBackup(
  url: string,
  file: string,
  service: { version: string; revision: string },
): Promise<BackupReport> {
  const partial = `${file}.partial`;
  const c = new Client({ connectionString: url });
  await c.connect();
  const gzip = zlib.createGzip();
  const sink = fs.createWriteStream(partial, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve).on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(sink);
  try {
    await c.query('begin transaction isolation level repeatable read read only');
    await fixRowText(c);
    const migrated = await c.query<{ t: string | null }>(
      `select to_regclass('public.mikro_orm_migrations')::text as t`,
    );
    if (migrated.rows[0].t === null) throw new Error('the database has no tables yet: start the service once first');
    const tables = await tablesOf(c);
    // As pg_dump does: no schema change (a migration) while the snapshot is read.
    await c.query(
      `lock table ${[...tables.keys()].map((t) => `public.${c.escapeIdentifier(t)}`).join(', ')} in access share mode`,
    );
    const migrations = (await c.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows;
    const check = tables.has('secrets_key_check')
      ? (await c.query<{ key_check: string }>('select key_check from secrets_key_check where id = 1')).rows[0]
      : undefined;
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: new Date().toISOString(),
      service,
      migrations: migrations.map((m) => m.name),
      tables: Object.fromEntries(tables),
      key_check: check?.key_check.trim() ?? null,
    };
    await put(gzip, `M${JSON.stringify(manifest)}\n`);
    const sums: Record<string, TableSum> = {};
    for (const table of tables.keys()) {
      await put(gzip, `T${JSON.stringify({ table })}\n`);
      let rows = 0;
      let sum = 0n;
      for await (const batch of jsonRowsOf(c, table)) {
        for (const j of batch) {
          sum += rowHash(j);
          await put(gzip, `R${j}\n`);
        }
        rows += batch.length;
      }
      sums[table] = { rows, checksum: sum.toString() };
    }
    // Read after the rows: a sequence is never behind an id the snapshot holds.
    await put(gzip, `S${JSON.stringify(await sequencePositions(c))}\n`);
    await put(gzip, `E${JSON.stringify({ tables: sums })}\n`);
    await c.query('commit');
    gzip.end();
    await done;
    fs.renameSync(partial, file);
    return { manifest, tables: sums, bytes: fs.statSync(file).size };
  } catch (e) {
    gzip.destroy();
    sink.destroy();
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    await c.end();
  }
}

/** A damaged or foreign file, said plainly (restore exits 1 with it). */
export class BadBackup extends Error {}

/** The file's lines, in order (gzip and line splitting streamed). */
async function* linesOf(file: string): AsyncGenerator<string> {
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } catch (e) {
    throw new BadBackup(`${file} is damaged (${(e as Error).message}): not a complete backup`);
  } finally {
    lines.close();
    input.destroy();
  }
}

function parse<T>(line: string, what: string): T {
  try {
    return JSON.parse(line.slice(1)) as T;
  } catch {
    throw new BadBackup(`the backup's ${what} record is damaged`);
  }
}

/** The manifest (first record) of a backup file, checked to be one this code reads. */
export async function readManifest(file: string): Promise<BackupManifest> {
  for await (const line of linesOf(file)) {
    const m = line.startsWith('M') ? parse<BackupManifest>(line, 'manifest') : undefined;
    if (m?.format !== BACKUP_FORMAT) throw new BadBackup(`${file} is not a backup of this service`);
    if (m.version > BACKUP_VERSION)
      throw new BadBackup(
        `${file} has format version ${m.version}; this version of the service reads ${BACKUP_VERSION}`,
      );
    return m;
  }
  throw new BadBackup(`${file} is empty`);
}

/**
 * Loads the backup's rows into the database of `target` (migrated to the backup's level, its tables
 * and columns exactly the manifest's, no users) in one transaction: rows, then counts and checksums
 * compared with the end record, then the foreign keys checked, then the sequences set and commit.
 * Any difference throws (BadBackup) and nothing is kept.
 */
export async function loadBackup(
  target: Client,
  file: string,
  manifest: BackupManifest,
): Promise<Record<string, TableSum>> {
  const tables = new Map(Object.entries(manifest.tables));
  const differ = differingTables(tables, await tablesOf(target));
  if (differ.length > 0)
    throw new Error(
      `the migrated target differs from the backup in tables or columns (${differ.slice(0, 5).join(', ')})`,
    );
  await target.query('begin');
  try {
    await fixRowText(target);
    const load = await prepareLoad(target, [...tables.keys()]);
    let table: string | undefined;
    let batch: string[] = [];
    let sequences: SequencePosition[] | undefined;
    let end: { tables: Record<string, TableSum> } | undefined;
    const flush = async () => {
      if (table && batch.length > 0) await insertJsonRows(target, table, tables.get(table)!, batch);
      batch = [];
    };
    for await (const line of linesOf(file)) {
      if (end) throw new BadBackup('the backup has records after its end record: the file is damaged');
      const kind = line[0];
      if (kind === 'R') {
        if (!table) throw new BadBackup('the backup has a row outside any table: the file is damaged');
        batch.push(line.slice(1));
        if (batch.length >= 1000) await flush();
      } else if (kind === 'T') {
        await flush();
        table = parse<{ table: string }>(line, 'table').table;
        if (!tables.has(table))
          throw new BadBackup(
            `the backup has rows of ${table}, a table its manifest does not list: the file is damaged`,
          );
      } else if (kind === 'S') {
        await flush();
        sequences = parse<SequencePosition[]>(line, 'sequences');
      } else if (kind === 'E') {
        end = parse<{ tables: Record<string, TableSum> }>(line, 'end');
      } else if (kind !== 'M') {
        throw new BadBackup('the backup has a record of an unknown kind: the file is damaged');
      }
    }
    if (!end || !sequences) throw new BadBackup(`${file} ends early: the backup is incomplete`);
    const sums: Record<string, TableSum> = {};
    for (const name of tables.keys()) {
      sums[name] = await checksumOf(target, name);
      const want = end.tables[name];
      if (!want || want.rows !== sums[name].rows || want.checksum !== sums[name].checksum)
        throw new BadBackup(
          `${name}: ${sums[name].rows} rows restored, the backup recorded ${want?.rows ?? 'none'}` +
            (want?.rows === sums[name].rows ? ' with another checksum' : '') +
            ': the file is damaged or was altered; nothing was restored',
        );
    }
    await load.finish();
    await setSequences(target, sequences);
    await target.query('commit');
    return sums;
  } catch (e) {
    await target.query('rollback').catch(() => undefined);
    throw rowsRefused(e) ?? e;
  }
}

/**
 * A row the database refuses (a data exception: not JSON, a bad value; or an integrity violation: a
 * duplicate key, a missing parent) comes from a damaged or altered file: said so, with the reason.
 */
function rowsRefused(e: unknown): BadBackup | undefined {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^2[23]/.test(code)) return undefined;
  return new BadBackup(
    `a row of the backup does not load (${(e as Error).message}): the file is damaged or was altered; nothing was restored`,
  );
}
