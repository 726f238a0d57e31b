import { COUNT_LIMIT } from './page';
import { boundedMatches, filterOf, orderOf, orderParts, type ListQuery } from './list-sql';

/**
 * The pages of a selective list (ListQuery.selective), whatever the place of its matches in the order
 * (docs/growth.md#far-end-matches). One statement, from up to four readings of the list, each cut by a
 * one-time filter on the ones before, so a reading that is not needed never runs:
 *
 * - `page_probe` (keyset pages only): a short ordered walk, WALK_PER_ROW rows per row the page needs,
 *   along the order index with the list's other filters as its condition and the selective ones checked
 *   per row. It fills the page of a term whose matches are dense where the order starts without counting
 *   them: a broad term costs its page, not its count.
 * - `page_match`, MATERIALIZED: the rows the bounded count reads (at most COUNT_LIMIT + 1, through whatever
 *   index serves the filter), with their id and sort values. An offset page counts them (GitLab's rule
 *   unchanged). At most COUNT_LIMIT: that is the whole match set, and the page is these rows sorted.
 * - `page_walk`, above COUNT_LIMIT matches: the ordered walk again, with the budget of a count (COUNT_LIMIT
 *   rows, or WALK_PER_ROW per row a deep page needs): many matches usually put a page near the start.
 * - `page_all`, MATERIALIZED, when that walk falls short too: every match, sorted. The matches are then
 *   many but sparse where the order starts (all at its far end, say), and reading them costs their number
 *   where the walk would cost their distance from the start, the whole table at worst.
 *
 * Why materialized CTEs and not a fence or an unindexable sort expression: those leave the query to pick
 * its own access path from the planner's estimate of the matches, the very estimate that sent it down the
 * order index (it assumes matches spread along the order). A walk checks the selective filters in a column
 * above its LIMIT, so it reads at most its budget. The gates stand above each reading's LIMIT, so none
 * is pushed down under a Gather: a parallel scan would start its workers before a gate inside it said no
 * (about 15 ms at a million groups).
 */

/**
 * Rows a walk reads per row its page needs before giving up: matches at a density of 5 % fill a page.
 * Short, so that a far-end page costs the same probe and count on a small instance as on a large one
 * (docs/growth.md#keyset-pages-connections-and-sets-above-10000).
 */
const WALK_PER_ROW = 20;

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
  /** Ids of the page's rows (`limit` from `offset`) among the first `budget` rows of the walk, under `gate`. */
  walk: (budget: number, gate: string) => { sql: string; params: unknown[] };
  all: { sql: string; params: unknown[] };
}

function readings(q: ListQuery<unknown>, filter: string, limit: number, offset: number): Readings {
  const terms = orderTerms(q);
  const columns = [`${q.id} as page_id`, ...terms.map((t, k) => `${t.expr} as page_o${k}`)].join(', ');
  const sorted = [...terms.map((t, k) => `page_o${k} ${t.dir}`.trim()), `page_id ${q.dir}`].join(', ');
  const { base, narrow } = filterParts(q);
  const walk = (budget: number, gate: string) => ({
    sql: `select page_id from (select ${columns}, (${narrow.sql}) as page_hit from ${q.from} where ${base.sql}
      order by ${orderOf(q)} limit ${budget}) page_steps where page_hit and ${gate} order by ${sorted} limit ${limit} offset ${offset}`,
    params: [...narrow.params, ...base.params],
  });
  return { columns, sorted, walk, all: { sql: `select ${columns} from ${q.from} where ${filter}`, params: q.params } };
}

/**
 * The CTEs and page ids of a selective list's page: `probe` says whether a keyset page walks a short way
 * first. The ids come in no particular order (the caller orders the rows).
 */
function pageIdsStatement(
  q: ListQuery<unknown>,
  filter: string,
  limit: number,
  offset: number,
  probe: boolean,
): { ctes: string; ids: string; params: unknown[] } {
  const r = readings(q, filter, limit, offset);
  const count = (cte: string) => `(select count(*) from ${cte})`;
  const probed = probe ? `${count('page_probe')} < ${limit}` : 'true';
  const total = '(select page_n from page_count)';
  const many = `${probed} and ${total} > ${COUNT_LIMIT}`;
  const walked = `${many} and ${count('page_walk')} < ${limit}`;
  const short = probe ? r.walk(WALK_PER_ROW * limit, 'true') : undefined;
  const matches = boundedMatches(q, filter, r.columns);
  const walk = r.walk(Math.max(COUNT_LIMIT, WALK_PER_ROW * (offset + limit)), many);
  const ctes = [
    ...(short ? [`page_probe as materialized (${short.sql})`] : []),
    `page_match as materialized (select * from (${matches.sql}) page_counted where ${probed})`,
    'page_count as (select count(*) as page_n from page_match)',
    `page_walk as materialized (${walk.sql})`,
    `page_all as materialized (${r.all.sql})`,
  ].join(',\n    ');
  const ids = [
    // a walk reads at most `limit` ids, and only when its gate let it: `limit` of them means it filled the page
    ...(short ? [`(select page_id from page_probe where ${count('page_probe')} = ${limit})`] : []),
    `(select page_id from page_match where ${probed} and ${total} <= ${COUNT_LIMIT} order by ${r.sorted} limit ${limit} offset ${offset})`,
    `(select page_id from page_walk where ${count('page_walk')} = ${limit})`,
    `(select page_id from page_all where ${walked} order by ${r.sorted} limit ${limit} offset ${offset})`,
  ].join('\n       union all\n       ');
  const params = [...(short?.params ?? []), ...matches.params, ...walk.params, ...r.all.params];
  return { ctes, ids, params };
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
  const st = pageIdsStatement(q, filter, limit, offset, false);
  const sql = `with ${st.ctes}
    select page_count.page_n as page_total, page_row.* from page_count left join (
      select ${q.select}, row_number() over (order by ${orderOf(q)}) as page_rn from ${q.from}
       where ${q.id} = any(array(
       ${st.ids}))
    ) page_row on true
    order by page_row.page_rn`;
  return { sql, params: st.params };
}

/**
 * A keyset page of a selective list (REST `pagination=keyset`, a connection's `first`/`after`): `q` holds
 * the cursor in its `where` (not among the selective filters) and the reading direction in `dir`. At most
 * `limit` rows in that order; no count.
 */
export function matchFirstKeysetSql(q: ListQuery<unknown>, limit: number): { sql: string; params: unknown[] } {
  const st = pageIdsStatement(q, filterOf(q), limit, 0, true);
  const sql = `with ${st.ctes}
    select ${q.select} from ${q.from}
     where ${q.id} = any(array(
       ${st.ids}))
     order by ${orderOf(q)}`;
  return { sql, params: st.params };
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
