import { COUNT_LIMIT } from './page';
import { boundedMatches, orderOf, orderParts, pageIdsSql, type ListQuery } from './list-sql';

/**
 * The offset page of a selective list (ListQuery.selective), whatever the place of its matches in the
 * order (docs/growth.md#far-end-matches). One statement:
 *
 * 1. `page_match`, MATERIALIZED: the rows the bounded count reads anyway (at most COUNT_LIMIT + 1, through
 *    whatever index serves the filter), with their id and sort values;
 * 2. the count is the number of those rows, as before (GitLab's rule unchanged);
 * 3. at most COUNT_LIMIT of them: that is the whole match set, so the page's ids are these rows sorted
 *    (a top-N sort of at most 10,000 narrow rows) and the order index is never walked;
 * 4. more: the order index is walked as for any list (the matches are many, so a page is near). The
 *    branch not taken is cut by a one-time filter on the count and never runs;
 * 5. the page's rows are read by id.
 *
 * Why a materialized CTE and not a fence or an unindexable sort expression on the page query alone:
 * those leave the page query to choose its own access path from the planner's estimate of the matches,
 * the very estimate that sent it down the order index (it assumes matches spread along the order). The
 * CTE reuses the count's reading instead, so the page costs the count plus a sort of what it read,
 * and never reads the matches twice.
 *
 * The statement answers one row per page row, each with `page_total` and `page_rn` (its place), or one
 * row with a null `page_rn` for an empty page.
 */

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

export function matchFirstPageSql(
  q: ListQuery<unknown>,
  filter: string,
  limit: number,
  offset: number,
): { sql: string; params: unknown[] } {
  const terms = orderTerms(q);
  const columns = [`${q.id} as page_id`, ...terms.map((t, k) => `${t.expr} as page_o${k}`)].join(', ');
  const matches = boundedMatches(q, filter, columns);
  const sorted = [...terms.map((t, k) => `page_o${k} ${t.dir}`.trim()), `page_id ${q.dir}`].join(', ');
  const total = '(select page_n from page_count)';
  // The gate stands above the walk's LIMIT, so it cannot be pushed down under a Gather: a parallel
  // walk would start its workers before a gate inside it said no (about 15 ms at a million groups).
  const sql = `with page_match as materialized (${matches.sql}),
    page_count as (select count(*) as page_n from page_match)
    select page_count.page_n as page_total, page_row.* from page_count left join (
      select ${q.select}, row_number() over (order by ${orderOf(q)}) as page_rn from ${q.from}
       where ${q.id} = any(array(
         (select page_id from page_match where ${total} <= ${COUNT_LIMIT} order by ${sorted} limit ${limit} offset ${offset})
         union all
         (select page_walk.page_id from (${pageIdsSql(q, filter, limit, offset)}) page_walk(page_id) where ${total} > ${COUNT_LIMIT})))
    ) page_row on true
    order by page_row.page_rn`;
  return { sql, params: [...matches.params, ...q.params] };
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
