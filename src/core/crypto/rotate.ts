import { pgArray } from '../db/sql';
import type { SealedColumn } from '../module/app-module';
import type { SecretBox, SecretSlot } from './secret-box';

type Run = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface RotationReport {
  /** Values re-sealed under the current key, per `table.column`. */
  resealed: Record<string, number>;
  /** Values that opened with no configured key: left as they are (each is served as absent). */
  unreadable: SecretSlot[];
  /** Values changed by a concurrent write between read and update: that write already sealed them anew. */
  skipped: number;
}

/**
 * `npm run secrets:rotate` (docs/operations.md#secrets-key-rotation): every sealed value of every registered
 * column is opened (current or previous key) and sealed again under the current key for its slot
 * (also turning v1 values into v2), and its digest recomputed, in batches of `batch` rows by primary
 * key, one UPDATE per batch. Each row's update applies only while the column still holds the value
 * read, so a write by a running instance in between wins. Idempotent: run it again after a failure.
 * Finally the stored key check becomes the current key's.
 */
export async function resealAll(
  run: Run,
  box: SecretBox,
  columns: readonly SealedColumn[],
  opts: { batch?: number; log?: (line: string) => void } = {},
): Promise<RotationReport> {
  const batch = opts.batch ?? 500;
  const report: RotationReport = { resealed: {}, unreadable: [], skipped: 0 };
  for (const c of columns) {
    const name = `${c.table}.${c.column}`;
    report.resealed[name] = 0;
    let after = -1;
    for (;;) {
      const rows = await run(
        `select id, (${c.rowKey})::text as row_key, ${ident(c.column)} as sealed from ${ident(c.table)} where id > ? and ${ident(c.column)} is not null order by id limit ${batch}`,
        [after],
      );
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1].id);
      const ids: number[] = [];
      const olds: string[] = [];
      const news: string[] = [];
      const digests: string[] = [];
      for (const r of rows) {
        const slot = { table: c.table, column: c.column, row: String(r.row_key) };
        let plain: string;
        try {
          plain = box.open(String(r.sealed), slot);
        } catch {
          report.unreadable.push(slot);
          continue;
        }
        ids.push(Number(r.id));
        olds.push(String(r.sealed));
        news.push(box.seal(plain, slot));
        digests.push(box.digest(plain));
      }
      if (ids.length > 0) {
        const setDigest = c.digestColumn ? `, ${ident(c.digestColumn)} = v.digest` : '';
        const updated = await run(
          `update ${ident(c.table)} t set ${ident(c.column)} = v.sealed${setDigest}
           from (select unnest(?::int[]) as id, unnest(?::text[]) as old, unnest(?::text[]) as sealed, unnest(?::text[]) as digest) v
           where t.id = v.id and t.${ident(c.column)} = v.old returning t.id`,
          [pgArray(ids), pgArray(olds), pgArray(news), pgArray(digests)],
        );
        report.resealed[name] += updated.length;
        report.skipped += ids.length - updated.length;
      }
      opts.log?.(`${name}: ${report.resealed[name]} re-sealed so far`);
      if (rows.length < batch) break;
    }
  }
  if (report.unreadable.length === 0) {
    await run(
      'insert into secrets_key_check (id, key_check) values (1, ?) on conflict (id) do update set key_check = excluded.key_check, updated_at = now()',
      [box.keyChecks()[0]],
    );
  }
  return report;
}
