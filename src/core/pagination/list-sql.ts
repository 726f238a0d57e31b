import { COUNT_LIMIT } from './page';

/**
 * One list query (docs/gitlab-compatibility.md, "Pagination"): a FROM, filters, a sort column and the row mapper. The
 * builder adds the stable tie-breaker (`<alias>.id` in the same direction), and gives either an
 * offset page (one bounded count + one page query in one round trip, whatever the page size) or a
 * keyset page (no count).
 */
export interface ListQuery<T> {
  /** Selected columns, e.g. `p.*`. */
  select: string;
  /** FROM clause (table with alias, joins). */
  from: string;
  /** ANDed predicates with `?` placeholders, and their values in order. */
  where: string[];
  params: unknown[];
  /**
   * Sort column, e.g. `p.created_at` (NOT NULL, or filtered so). Connection arguments cut the list by
   * keyset on (orderBy, id) when it is one column or expression; an order of several columns (`a asc, b`) is cut by
   * position instead (docs/graphql.md#connections-relay).
   */
  orderBy: string;
  dir: 'asc' | 'desc';
  /** The unique id column ending every ORDER BY, e.g. `p.id`. */
  id: string;
  /**
   * Disjoint predicates (without `?`) whose union is one of `where`'s ORs, e.g. a user's visibility:
   * `level >= 10` and `not (level >= 10) and <membership>`. The bounded count then adds up one branch per
   * predicate, each planned on its own index: an OR is one filter over a whole index.
   */
  split?: string[];
  /** The `where` entry that `split` divides: the count's branches stand in for it instead of repeating it. */
  splitOf?: string;
  /**
   * Read the page's ids first, then its rows, at every offset (not only deep ones): for filters that
   * enumerate a set to sort (a member's 5,000 projects), the sort then carries ids, not whole rows.
   */
  deferRows?: boolean;
  /**
   * The `where` entries of filters whose matches may be few and lie anywhere in the order (a search term,
   * custom attributes, an owner): the list is then *selective*. An offset page comes from the bounded
   * count's own matches, sorted, when there are at most COUNT_LIMIT of them; a larger set, and a keyset
   * page, walk the order index with these entries checked per row, within a budget, then read the matches
   * through their index when the walk finds too few (match-first.ts, docs/growth.md#far-end-matches).
   */
  selective?: string[];
  map: (row: Record<string, unknown>) => T;
}

export const isSelective = (q: ListQuery<unknown>) => !!q.selective?.length;
export const filterOf = (q: ListQuery<unknown>) => (q.where.length ? q.where.join(' and ') : 'true');
export const orderOf = (q: ListQuery<unknown>) =>
  q.orderBy === q.id ? `${q.id} ${q.dir}` : `${q.orderBy} ${q.dir}, ${q.id} ${q.dir}`;

/** `a, f(b, c), d` → `['a', 'f(b, c)', 'd']`: the parts of an ORDER BY list (no comma outside parentheses splits). */
export function orderParts(orderBy: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < orderBy.length; i += 1) {
    const ch = orderBy[i];
    if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(orderBy.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(orderBy.slice(start).trim());
  return parts;
}

/** `select <columns>` of at most COUNT_LIMIT + 1 matching rows: GitLab's `total_count_with_limit` reads no more. */
const boundedRows = (columns: string, from: string, filter: string) =>
  `select ${columns} from ${from} where ${filter} limit ${COUNT_LIMIT + 1}`;

/** Counts at most COUNT_LIMIT + 1 matching rows (GitLab's `total_count_with_limit`): the cost stays flat on big tables. */
export const boundedCount = (from: string, filter: string) =>
  `select count(*) as n from (${boundedRows('1', from, filter)}) counted`;

/**
 * The rows a list's bounded count reads (`columns` of at most COUNT_LIMIT + 1 of them), as a UNION ALL of
 * its `split` branches when it has them (with the params repeated per branch).
 */
export function boundedMatches(
  q: ListQuery<unknown>,
  filter: string,
  columns: string,
): { sql: string; params: unknown[] } {
  if (!q.split?.length) return { sql: boundedRows(columns, q.from, filter), params: q.params };
  const rest = q.splitOf === undefined ? filter : filterOf({ ...q, where: q.where.filter((w) => w !== q.splitOf) });
  const branches = q.split.map((b) => `select ${columns} from ${q.from} where ${rest} and (${b})`).join(' union all ');
  return { sql: `${branches} limit ${COUNT_LIMIT + 1}`, params: q.split.flatMap(() => q.params) };
}

/** The bounded count of a list (its `split` branches added up when it has them). */
export function listCount(q: ListQuery<unknown>, filter: string): { sql: string; params: unknown[] } {
  if (!q.split?.length) return { sql: boundedCount(q.from, filter), params: q.params };
  const m = boundedMatches(q, filter, '1');
  return { sql: `select count(*) as n from (${m.sql}) counted`, params: m.params };
}

/** From this offset on, a page first skips ids only, then reads its rows (below: one plain query). */
const DEFERRED_OFFSET = 1000;

/** The ids of one page of the list in its order (the order index walked, the filter checked on the way). */
export const pageIdsSql = (q: ListQuery<unknown>, filter: string, limit: number, offset: number) =>
  `select ${q.id} from ${q.from} where ${filter} order by ${orderOf(q)} limit ${limit} offset ${offset}`;

/**
 * The page query. Deep pages skip the offset on ids (an index-only scan when one index holds the filter,
 * the order and the id) and read only the page's rows: PostgreSQL reads every skipped row otherwise
 * (e.g. `GET /groups?page=5000` at a million groups). Same rows, same order.
 */
export function pageSql(q: ListQuery<unknown>, filter: string, limit: number, offset: number): string {
  const page = `select ${q.select} from ${q.from} where ${filter} order by ${orderOf(q)} limit ${limit} offset ${offset}`;
  if (offset < DEFERRED_OFFSET && !q.deferRows) return page;
  return `select ${q.select} from ${q.from} where ${q.id} = any(array(${pageIdsSql(q, filter, limit, offset)})) order by ${orderOf(q)}`;
}
