import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows } from '../db/sql';

/**
 * The next id of `table` (from its serial sequence), taken before the row is inserted, so a secret
 * can be sealed for the row it goes in (secret-box.ts, slots). The insert then sets this id. An id
 * taken and not used leaves a gap, as a rolled-back insert does.
 */
export async function reserveRowId(em: EntityManager, table: string): Promise<number> {
  const [row] = await sqlRows<{ id: string }>(em, `select nextval(pg_get_serial_sequence(?, 'id')) as id`, [table]);
  return Number(row.id);
}

/** `count` ids of `table` at once (bulk inserts, e.g. the scale seed), in ascending order. */
export async function reserveRowIds(em: EntityManager, table: string, count: number): Promise<number[]> {
  const rows = await sqlRows<{ id: string }>(
    em,
    `select nextval(pg_get_serial_sequence(?, 'id')) as id from generate_series(1, ?::int) order by 1`,
    [table, count],
  );
  return rows.map((r) => Number(r.id));
}
