import type { EntityManager } from '@mikro-orm/postgresql';
import { NotAllowedError } from '../errors/domain-errors';
import { sqlRows, sqlRowsBatch } from '../db/sql';
import { decodeCursor, encodeCursor } from './cursor';
import { COUNT_LIMIT, makePage, normalizePage, PaginationMode, type Page } from './page';

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
  /** Sort column, e.g. `p.created_at`. */
  orderBy: string;
  dir: 'asc' | 'desc';
  /** The unique id column ending every ORDER BY, e.g. `p.id`. */
  id: string;
  /**
   * Disjoint predicates (without `?`) whose union is one of `where`'s ORs, e.g. a user's visibility:
   * `level >= 10` and `not (level >= 10) and <membership>`. The bounded count then adds up one branch per
   * predicate, each planned on its own index: an OR is one filter over a whole index (issue 19).
   */
  split?: string[];
  /** The `where` entry that `split` divides: the count's branches stand in for it instead of repeating it. */
  splitOf?: string;
  /**
   * Read the page's ids first, then its rows, at every offset (not only deep ones): for filters that
   * enumerate a set to sort (a member's 5,000 projects), the sort then carries ids, not whole rows.
   */
  deferRows?: boolean;
  map: (row: Record<string, unknown>) => T;
}

export interface PageInput {
  page?: number | null;
  perPage?: number | null;
}

const filterOf = (q: ListQuery<unknown>) => (q.where.length ? q.where.join(' and ') : 'true');
const orderOf = (q: ListQuery<unknown>) => (q.orderBy === q.id ? `${q.id} ${q.dir}` : `${q.orderBy} ${q.dir}, ${q.id} ${q.dir}`);

/** Counts at most COUNT_LIMIT + 1 matching rows (GitLab's `total_count_with_limit`): the cost stays flat on big tables. */
const boundedCount = (from: string, filter: string) => `select count(*) as n from (select 1 from ${from} where ${filter} limit ${COUNT_LIMIT + 1}) counted`;

/** The bounded count of a list, as a UNION ALL of its `split` branches when it has them (with the params repeated per branch). */
function listCount(q: ListQuery<unknown>, filter: string): { sql: string; params: unknown[] } {
  if (!q.split?.length) return { sql: boundedCount(q.from, filter), params: q.params };
  const rest = q.splitOf === undefined ? filter : filterOf({ ...q, where: q.where.filter((w) => w !== q.splitOf) });
  const branches = q.split.map((b) => `select 1 from ${q.from} where ${rest} and (${b})`).join(' union all ');
  return { sql: `select count(*) as n from (${branches} limit ${COUNT_LIMIT + 1}) counted`, params: q.split.flatMap(() => q.params) };
}

/** From this offset on, a page first skips ids only, then reads its rows (below: one plain query). */
const DEFERRED_OFFSET = 1000;

/**
 * The page query. Deep pages skip the offset on ids (an index-only scan when one index holds the filter,
 * the order and the id) and read only the page's rows: PostgreSQL reads every skipped row otherwise
 * (`GET /groups?page=5000` at a million groups: 23 ms → 12 ms, issue 19). Same rows, same order.
 */
function pageSql(q: ListQuery<unknown>, filter: string, limit: number, offset: number): string {
  const page = `select ${q.select} from ${q.from} where ${filter} order by ${orderOf(q)} limit ${limit} offset ${offset}`;
  if (offset < DEFERRED_OFFSET && !q.deferRows) return page;
  const ids = `select ${q.id} from ${q.from} where ${filter} order by ${orderOf(q)} limit ${limit} offset ${offset}`;
  return `select ${q.select} from ${q.from} where ${q.id} = any(array(${ids})) order by ${orderOf(q)}`;
}

/**
 * Offset pagination: bounded count + page in SQL (one round trip, two statements), ordered by the
 * sort column then id. The page reads one row more than perPage: above COUNT_LIMIT it tells whether
 * a next page exists.
 */
export async function offsetPage<T>(em: EntityManager, q: ListQuery<T>, args: PageInput): Promise<Page<T>> {
  const req = normalizePage(args);
  const filter = filterOf(q);
  const [counted, rows] = await sqlRowsBatch(em, [
    listCount(q, filter),
    { sql: pageSql(q, filter, req.perPage + 1, req.offset), params: q.params },
  ]);
  return makePage(rows.map(q.map), Number(counted[0].n), req);
}

/** `'{1,2,3}'::int[]` from trusted integers. */
const intArrayLiteral = (ids: readonly number[]) => `'{${ids.map((id) => Math.trunc(Number(id))).join(',')}}'::int[]`;

/**
 * The same page of one list for many keys at once (e.g. the subgroups of every group of a list, the
 * jobs of every runner): `key` is the integer column the lists are split by (`n.parent_id`). One
 * round trip: a bounded count per key and a lateral page per key, whatever the number of keys and
 * the page size. Every key gets a page (empty when nothing matches).
 */
export async function offsetPagesByKey<T>(em: EntityManager, q: ListQuery<T>, key: string, keys: readonly number[], args: PageInput): Promise<Map<number, Page<T>>> {
  const req = normalizePage(args);
  const filter = `${filterOf(q)} and ${key} = page_keys.k`;
  const ks = `unnest(${intArrayLiteral(keys)}) as page_keys(k)`;
  const [counted, rows] = await sqlRowsBatch(em, [
    { sql: `select page_keys.k as page_key, (${boundedCount(q.from, filter)}) as page_total from ${ks}`, params: q.params },
    {
      sql: `select page_keys.k as page_key, x.* from ${ks} cross join lateral (
        select ${q.select}, row_number() over (order by ${orderOf(q)}) as page_rn from ${q.from} where ${filter}
         order by ${orderOf(q)} limit ${req.perPage + 1} offset ${req.offset}) x
        order by page_keys.k, x.page_rn`,
      params: q.params,
    },
  ]);
  const byKey = new Map<number, T[]>(keys.map((k) => [Number(k), []]));
  for (const row of rows) {
    const { page_key: pageKey, page_rn: _rn, ...rest } = row;
    byKey.get(Number(pageKey))?.push(q.map(rest));
  }
  const totals = new Map(counted.map((c) => [Number(c.page_key), Number(c.page_total)]));
  return new Map([...byKey].map(([k, nodes]) => [k, makePage(nodes, totals.get(k) ?? 0, req)]));
}

/**
 * Keyset pagination is offered for these sort columns only; any other is GitLab's
 * 405 "Keyset pagination is not yet available for this type of request"
 * (lib/api/helpers/pagination_strategies.rb).
 */
export function assertKeysetOrder(column: string, supported: readonly string[]): void {
  if (!supported.includes(column)) throw new NotAllowedError('Keyset pagination is not yet available for this type of request');
}

/**
 * Keyset pagination: rows after the cursor's (sort value, id), one extra row to know whether a next
 * page exists; no totals. `valueOf` reads the sort value of a mapped row for the next cursor.
 */
export async function keysetPage<T extends { id: number }>(
  em: EntityManager,
  q: ListQuery<T>,
  args: PageInput & { cursor?: string | null },
  valueOf: (row: T) => string | number,
): Promise<Page<T>> {
  const req = normalizePage(args);
  const where = [...q.where];
  const params = [...q.params];
  const op = q.dir === 'asc' ? '>' : '<';
  if (args.cursor) {
    const c = decodeCursor(args.cursor);
    where.push(q.orderBy === q.id ? `${q.id} ${op} ?` : `(${q.orderBy}, ${q.id}) ${op} (?, ?)`);
    params.push(...(q.orderBy === q.id ? [c.id] : [c.v, c.id]));
  }
  const rows = await sqlRows<Record<string, unknown>>(
    em,
    `select ${q.select} from ${q.from} where ${filterOf({ ...q, where })} order by ${orderOf(q)} limit ${req.perPage + 1}`,
    params,
  );
  const nodes = rows.slice(0, req.perPage).map(q.map);
  const last = nodes[nodes.length - 1];
  const hasNextPage = rows.length > req.perPage && !!last;
  const nextCursor = hasNextPage ? encodeCursor({ v: valueOf(last), id: last.id }) : null;
  return { nodes, total: null, page: 1, perPage: req.perPage, totalPages: null, hasNextPage, pagination: PaginationMode.KEYSET, nextCursor };
}
