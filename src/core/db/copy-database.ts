import { Client } from 'pg';
import {
  differingTables,
  insertJsonRows,
  jsonRowsOf,
  prepareLoad,
  qualified,
  sequencePositions,
  setSequences,
  tablesOf,
  type Column,
} from './table-rows';

/**
 * Copies every row of one migrated database into another migrated at the same version (`npm run
 * db:copy-embedded`, docs/operations.md#moving-to-a-shared-postgresql): one read-only snapshot on the
 * source, one transaction on the target, so the target ends with all of it or none of it.
 *
 * Rows travel as JSON text and foreign keys are deferred for the load (table-rows.ts).
 */

export interface CopyReport {
  /** Rows per table, as counted on the target before the commit. */
  rows: Record<string, number>;
  sequences: number;
}

/** Refuses unless both databases have the same tables and columns (the same version of the service). */
function assertSameSchema(source: Map<string, Column[]>, target: Map<string, Column[]>): void {
  const differ = differingTables(source, target);
  if (differ.length > 0)
    throw new Error(
      `the source and the target differ in tables or columns (${differ.slice(0, 5).join(', ')}): run both on the same version of the service`,
    );
}

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
  const load = await prepareLoad(target, [...tables.keys()]);
  const counts: Record<string, number> = {};
  for (const [table, columns] of tables) {
    for await (const batch of jsonRowsOf(source, table)) await insertJsonRows(target, table, columns, batch);
    const t = qualified(source, table);
    const [there, here] = await Promise.all([
      source.query<{ n: string }>(`select count(*) as n from ${t}`),
      target.query<{ n: string }>(`select count(*) as n from ${t}`),
    ]);
    if (there.rows[0].n !== here.rows[0].n)
      throw new Error(`${table}: ${there.rows[0].n} rows in the source, ${here.rows[0].n} copied`);
    counts[table] = Number(here.rows[0].n);
  }
  await load.finish();
  return counts;
}

/** Each sequence continues where the source's stands, so new ids do not collide with copied ones. */
async function copySequences(source: Client, target: Client): Promise<number> {
  const positions = await sequencePositions(source);
  await setSequences(target, positions);
  return positions.length;
}
