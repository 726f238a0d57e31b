import { COUNT_LIMIT } from './page';
import { boundedMatches, filterOf, orderOf, orderParts, type ListQuery } from './list-sql';

/**
 * The pages of a selective list (ListQuery.selective), whatever the place of its matches in the order
 * (docs/growth.md#far-end-matches). One statement, from three readings of the list:
 *
 * - `page_match`, MATERIALIZED: the rows the bounded count reads anyway (at most COUNT_LIMIT + 1, through
 *   whatever index serves the filter), with their id and sort values. An offset page counts them (GitLab's
 *   rule unchanged) and, when there are at most COUNT_LIMIT, sorts them: that is the whole match set.
 * - `page_walk`, the ordered walk with a budget (walkBudget): the first rows along the order index with
 *   only the list's other filters, each checked against the selective ones. When the matches are dense
 *   near the start of the order (a broad term) it fills the page at once.
 * - `page_all`, MATERIALIZED: every match, sorted. Only when the walk's budget ran out first: the matches
 *   are then sparse where the order starts, and reading them through their index costs their number,
 *   where the walk would cost their distance from the start (the whole table when they lie at its end).
 *
 * An offset page reads `page_match` first (it needs the count), then the walk only above COUNT_LIMIT
 * matches; a keyset page (no count) walks first, so a broad term costs its page, not its count. Each
 * reading is cut by a one-time filter on the one before and never runs when not needed.
 *
 * Why materialized CTEs and not a fence or an unindexable sort expression: those leave the query to pick
 * its own access path from the planner's estimate of the matches, the very estimate that sent it down the
 * order index (it assumes matches spread along the order).
 */

/**
 * How far the walk may go before the matches are read instead: as many rows as the bounded count reads
 * (so the walk costs at most about what counting costs), more for a deep page (100 rows per row it needs:
 * matches at a density of 1 % still fill it).
 */
const walkBudget = (need: number) => Math.max(COUNT_LIMIT, 100 * need);

interface OrderTerm {
  expr: string;
  /** `asc`, `desc`, optionally with `nulls first|last`, or empty (ascending). */
  dir: string;
}

const EXPLICIT_DIR = /\s+(asc|desc)(\s+nulls\s+(first|last))?\s*$/i;

/** The sort terms of `orderOf(q)` without the trailing id: every part keeps its direction; the last one takes q.dir. */
function orderTerms(q: ListQuery<unknown>): OrderTerm[] {
  if (q.orderBy === q.id) return [];
  const parts = orderParts(q.orderBy);
  return parts.map((part, i) => {
    if (i === parts.length - 1) return { expr: part, dir: q.dir };
    const m = EXPLICIT_DIR.exec(part);
    return m ? { expr: part.slice(0, m.index), dir: m[0].trim() } : { expr: part, dir: '' };
  });
}

const placeholders = (sql: string) => (sql.match(/\?/g) ?? []).length;

/**
 * The list's filter in two parts, each with its params: `narrow`, the selective filters, and `base`, the
 * others (visibility, kind, a keyset cursor), which stay index conditions of the walk.
 */
function filterParts(q: ListQuery<unknown>): Record<'base' | 'narrow', { sql: string; params: unknown[] }> {
  const parts = {
    base: { where: [] as string[], params: [] as unknown[] },
    narrow: { where: [] as string[], params: [] as unknown[] },
  };
  let at = 0;
  for (const w of q.where) {
    const n = placeholders(w);
    const part = q.selective?.includes(w) ? parts.narrow : parts.base;
    part.where.push(w);
    part.params.push(...q.params.slice(at, at + n));
    at += n;
  }
  if (at !== q.params.length) throw new Error(`list filter has ${at} placeholders for ${q.params.length} params`);
  const joined = (p: { where: string[]; params: unknown[] }) => ({
    sql: filterOf({ ...q, where: p.where }),
    params: p.params,
  });
  return { base: joined(parts.base), narrow: joined(parts.narrow) };
}

interface Readings {
  columns: string;
  sorted: string;
  walk: { sql: string; params: unknown[] };
  all: { sql: string; params: unknown[] };
}

/** The walk (ids of page rows `limit` from `offset`, within its budget) and every match, as the statement's parts. */
function readings(q: ListQuery<unknown>, filter: string, limit: number, offset: number, gate: string): Readings {
  const terms = orderTerms(q);
  const columns = [`${q.id} as page_id`, ...terms.map((t, k) => `${t.expr} as page_o${k}`)].join(', ');
  const sorted = [...terms.map((t, k) => `page_o${k} ${t.dir}`.trim()), `page_id ${q.dir}`].join(', ');
  const { base, narrow } = filterParts(q);
  const budget = walkBudget(offset + limit);
  const walk = {
    sql: `select page_id from (select ${columns}, (${narrow.sql}) as page_hit from ${q.from} where ${base.sql}
      order by ${orderOf(q)} limit ${budget}) page_probe where page_hit and ${gate} order by ${sorted} limit ${limit} offset ${offset}`,
    params: [...narrow.params, ...base.params],
  };
  return { columns, sorted, walk, all: { sql: `select ${columns} from ${q.from} where ${filter}`, params: q.params } };
}

/**
 * The offset page of a selective list: one row per page row, each with `page_total` and `page_rn` (its
 * place), or one row with a null `page_rn` for an empty page.
 */
export function matchFirstPageSql(
  q: ListQuery<unknown>,
  filter: string,
  limit: number,
  offset: number,
): { sql: string; params: unknown[] } {
  const total = '(select page_n from page_count)';
  const r = readings(q, filter, limit, offset, `${total} > ${COUNT_LIMIT}`);
  const matches = boundedMatches(q, filter, r.columns);
  const walked = '(select count(*) from page_walk)';
  // The gates stand above each reading's LIMIT, so none is pushed down under a Gather: a parallel scan
  // would start its workers before a gate inside it said no (about 15 ms at a million groups).
  const sql = `with page_match as materialized (${matches.sql}),
    page_count as (select count(*) as page_n from page_match),
    page_walk as materialized (${r.walk.sql}),
    page_all as materialized (${r.all.sql})
    select page_count.page_n as page_total, page_row.* from page_count left join (
      select ${q.select}, row_number() over (order by ${orderOf(q)}) as page_rn from ${q.from}
       where ${q.id} = any(array(
         (select page_id from page_match where ${total} <= ${COUNT_LIMIT} order by ${r.sorted} limit ${limit} offset ${offset})
         union all
         (select page_id from page_walk where ${walked} = ${limit})
         union all
         (select page_id from page_all where ${total} > ${COUNT_LIMIT} and ${walked} < ${limit} order by ${r.sorted} limit ${limit} offset ${offset})))
    ) page_row on true
    order by page_row.page_rn`;
  return { sql, params: [...matches.params, ...r.walk.params, ...r.all.params] };
}

/**
 * A keyset page of a selective list (REST `pagination=keyset`, a connection's `first`/`after`): `q` holds
 * the cursor in its `where` (not among the selective filters) and the reading direction in `dir`. At most
 * `limit` rows in that order; no count.
 */
export function matchFirstKeysetSql(q: ListQuery<unknown>, limit: number): { sql: string; params: unknown[] } {
  const r = readings(q, filterOf(q), limit, 0, 'true');
  const walked = '(select count(*) from page_walk)';
  const sql = `with page_walk as materialized (${r.walk.sql}),
    page_all as materialized (${r.all.sql})
    select ${q.select} from ${q.from}
     where ${q.id} = any(array(
       (select page_id from page_walk where ${walked} = ${limit})
       union all
       (select page_id from page_all where ${walked} < ${limit} order by ${r.sorted} limit ${limit})))
     order by ${orderOf(q)}`;
  return { sql, params: [...r.walk.params, ...r.all.params] };
}

/** The count and the page rows (without the statement's own columns) of a `matchFirstPageSql` answer. */
export function matchFirstRows(rows: Record<string, unknown>[]): {
  total: number;
  rows: Record<string, unknown>[];
} {
  const total = Number(rows[0]?.page_total ?? 0);
  const page = rows
    .filter((r) => r.page_rn !== null && r.page_rn !== undefined)
    .map(({ page_total: _total, page_rn: _rn, ...row }) => row);
  return { total, rows: page };
}
