import { pgArray } from '../db/sql';
import type { SealedColumn } from '../module/app-module';
import type { SecretBox } from './secret-box';

type Run = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (v: boolean | null) => (v === null ? 'null' : v ? 'true' : 'false');

export interface ResetReport {
  /** Values reset, per `table.column` (only columns with at least one). */
  reset: Record<string, number>;
  /** The notes of the columns reset (what an administrator does next). */
  notes: string[];
}

/**
 * `npm run secrets:reset-lost` (docs/operations.md#keys): every sealed value of every registered column
 * that no configured key opens is replaced by its column's `resetLost` rule (core/module/app-module.ts):
 * a new value sealed for its slot with its digest, or null (digest null too), plus the row's other
 * columns the rule sets. Values that open are left as they are. Batches of `batch` rows by id; each
 * row changes only while it still holds the value read (a running writer wins). Then the stored key
 * check becomes the current key's, so the next start with this key passes.
 */
export async function resetUnreadable(
  run: Run,
  box: SecretBox,
  columns: readonly SealedColumn[],
  batch = 500,
): Promise<ResetReport> {
  const report: ResetReport = { reset: {}, notes: [] };
  for (const c of columns) {
    const name = `${c.table}.${c.column}`;
    const rule = c.resetLost ?? {};
    let count = 0;
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
      const news: (string | null)[] = [];
      const digests: (string | null)[] = [];
      for (const r of rows) {
        const slot = { table: c.table, column: c.column, row: String(r.row_key) };
        try {
          box.open(String(r.sealed), slot);
          continue;
        } catch {
          // lost: reset below
        }
        const plain = rule.renew?.();
        ids.push(Number(r.id));
        olds.push(String(r.sealed));
        news.push(plain === undefined ? null : box.seal(plain, slot));
        digests.push(plain === undefined ? null : box.digest(plain));
      }
      if (ids.length > 0) {
        const sets = [
          `${ident(c.column)} = v.sealed`,
          ...(c.digestColumn ? [`${ident(c.digestColumn)} = v.digest`] : []),
          ...Object.entries(rule.alsoSet ?? {}).map(([col, v]) => `${ident(col)} = ${literal(v)}`),
        ];
        const updated = await run(
          `update ${ident(c.table)} t set ${sets.join(', ')}
           from (select unnest(?::int[]) as id, unnest(?::text[]) as old, unnest(?::text[]) as sealed, unnest(?::text[]) as digest) v
           where t.id = v.id and t.${ident(c.column)} = v.old returning t.id`,
          [pgArray(ids), pgArray(olds), pgArray(news), pgArray(digests)],
        );
        count += updated.length;
      }
      if (rows.length < batch) break;
    }
    if (count > 0) {
      report.reset[name] = count;
      if (rule.note && !report.notes.includes(rule.note)) report.notes.push(rule.note);
    }
  }
  await run(
    'insert into secrets_key_check (id, key_check) values (1, ?) on conflict (id) do update set key_check = excluded.key_check, updated_at = now()',
    [box.keyChecks()[0]],
  );
  return report;
}
