import type { EntityManager } from '@mikro-orm/postgresql';
import { NotAllowedError, ParamError } from '../errors/domain-errors';
import { sqlRows, sqlRowsBatch } from '../db/sql';
import { decodeCursor, encodeCursor, encodeOffsetCursor, type Cursor } from './cursor';
import {
  boundedCount,
  filterOf,
  isSelective,
  listCount,
  orderOf,
  orderParts,
  pageSql,
  type ListQuery,
} from './list-sql';
import { matchFirstKeysetSql, matchFirstPageSql, matchFirstRows } from './match-first';
import {
  COUNT_LIMIT,
  connectionRequest,
  makePage,
  normalizePage,
  PaginationMode,
  type ConnectionInfo,
  type ConnectionInput,
  type ConnectionRequest,
  type Page,
} from './page';

export type { ListQuery } from './list-sql';

/** page/perPage, or the connection arguments first/after/last/before (core/pagination/page.ts). */
export type PageInput = ConnectionInput;

/**
 * Offset pagination: bounded count + page in SQL (one round trip, two statements), ordered by the
 * sort column then id. The page reads one row more than perPage: above COUNT_LIMIT it tells whether
 * a next page exists. A selective list runs both as one statement that sorts the count's matches
 * when there are at most COUNT_LIMIT of them (match-first.ts).
 */
export async function offsetPage<T>(em: EntityManager, q: ListQuery<T>, args: PageInput): Promise<Page<T>> {
  const conn = connectionRequest(args);
  if (conn) return connectionPage(em, q, conn);
  const req = normalizePage(args);
  const filter = filterOf(q);
  if (isSelective(q)) {
    const st = matchFirstPageSql(q, filter, req.perPage + 1, req.offset);
    const page = matchFirstRows(await sqlRows(em, st.sql, st.params));
    return makePage(page.rows.map(q.map), page.total, req);
  }
  const [counted, rows] = await sqlRowsBatch(em, [
    listCount(q, filter),
    { sql: pageSql(q, filter, req.perPage + 1, req.offset), params: q.params },
  ]);
  return makePage(rows.map(q.map), Number(counted[0].n), req);
}

/** `'{1,2,3}'::int[]` from trusted integers. */
const intArrayLiteral = (ids: readonly number[]) => `'{${ids.map((id) => Math.trunc(Number(id))).join(',')}}'::int[]`;

/**
 * What splits a batched list by key: an integer column equal to the key (`n.parent_id`), or a predicate
 * over the key `page_keys.k` (`{ match: 'n.traversal_ids @> array[page_keys.k]' }`: all descendants).
 */
export type PageKey = string | { match: string };
const keyFilter = (key: PageKey) => (typeof key === 'string' ? `${key} = page_keys.k` : `(${key.match})`);

/** The bounded count (GitLab's 10,000 rule) of one list per key, as one statement: rows `page_key`, `page_total`. */
function countsByKeyStatement(
  q: ListQuery<unknown>,
  key: PageKey,
  keys: readonly number[],
): { sql: string; params: unknown[] } {
  return {
    sql: `select page_keys.k as page_key, (${boundedCount(q.from, `${filterOf(q)} and ${keyFilter(key)}`)}) as page_total from unnest(${intArrayLiteral(keys)}) as page_keys(k)`,
    params: q.params,
  };
}
const totalsOf = (rows: Record<string, unknown>[]) =>
  new Map(rows.map((r) => [Number(r.page_key), Number(r.page_total)]));

/**
 * How many rows of one list each key has, at most COUNT_LIMIT (null above: as the list totals), in one
 * statement: e.g. `Runner.jobCount` across a runner list.
 */
export async function boundedCountsByKey(
  em: EntityManager,
  q: ListQuery<unknown>,
  key: PageKey,
  keys: readonly number[],
): Promise<Map<number, number | null>> {
  const { sql, params } = countsByKeyStatement(q, key, keys);
  const totals = totalsOf(await sqlRows(em, sql, params));
  return new Map(keys.map((k) => [Number(k), bounded(totals.get(Number(k)) ?? 0)]));
}

/**
 * The same page of one list for many keys at once (e.g. the subgroups of every group of a list, the
 * jobs of every runner): `key` is the integer column the lists are split by (`n.parent_id`). One
 * round trip: a bounded count per key and a lateral page per key, whatever the number of keys and
 * the page size. Every key gets a page (empty when nothing matches).
 */
export async function offsetPagesByKey<T>(
  em: EntityManager,
  q: ListQuery<T>,
  key: PageKey,
  keys: readonly number[],
  args: PageInput,
): Promise<Map<number, Page<T>>> {
  const conn = connectionRequest(args);
  if (conn) return connectionPagesByKey(em, q, key, keys, conn);
  const req = normalizePage(args);
  const filter = `${filterOf(q)} and ${keyFilter(key)}`;
  const ks = `unnest(${intArrayLiteral(keys)}) as page_keys(k)`;
  const [counted, rows] = await sqlRowsBatch(em, [
    countsByKeyStatement(q, key, keys),
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
  const totals = totalsOf(counted);
  return new Map([...byKey].map(([k, nodes]) => [k, makePage(nodes, totals.get(k) ?? 0, req)]));
}

/**
 * Keyset pagination is offered for these sort columns only; any other is GitLab's
 * 405 "Keyset pagination is not yet available for this type of request"
 * (lib/api/helpers/pagination_strategies.rb).
 */
export function assertKeysetOrder(column: string, supported: readonly string[]): void {
  if (!supported.includes(column))
    throw new NotAllowedError('Keyset pagination is not yet available for this type of request');
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
  connectionRequest(args); // refuses first/after/last/before next to pagination: KEYSET
  const req = normalizePage(args);
  const where = [...q.where];
  const params = [...q.params];
  const op = q.dir === 'asc' ? '>' : '<';
  if (args.cursor) {
    const c = decodeCursor(args.cursor);
    where.push(q.orderBy === q.id ? `${q.id} ${op} ?` : `(${q.orderBy}, ${q.id}) ${op} (?, ?)`);
    params.push(...(q.orderBy === q.id ? [c.id] : [c.v, c.id]));
  }
  const rows = await cursorRows(em, keysetStatement({ ...q, where, params }, req.perPage + 1));
  const nodes = rows.slice(0, req.perPage).map(q.map);
  const last = nodes[nodes.length - 1];
  const hasNextPage = rows.length > req.perPage && !!last;
  const nextCursor = hasNextPage ? encodeCursor({ v: valueOf(last), id: last.id }) : null;
  const connection: ConnectionInfo = {
    cursorAt: (i) => encodeCursor({ v: valueOf(nodes[i]), id: nodes[i].id }),
    hasPreviousPage: !!args.cursor,
    hasNextPage,
    count: lazyCount(em, q),
  };
  return {
    nodes,
    total: null,
    page: 1,
    perPage: req.perPage,
    totalPages: null,
    hasNextPage,
    pagination: PaginationMode.KEYSET,
    nextCursor,
    connection,
  };
}

/* ---------------------------------------------------------------------------------------------
 * Connections (first/after/last/before; https://relay.dev/graphql/connections.htm,
 * docs/graphql.md#connections-relay). A list with one sort column is cut by keyset on (orderBy, id): the same
 * (sort column, id) indexes as the keyset pages, whatever the depth. `last` reads the reversed order
 * from `before` (or the end) and flips the rows back. A list ordered by several columns, or a call
 * whose cursor is a position (from a page read with page/perPage), is cut by position (offset).
 * ------------------------------------------------------------------------------------------- */

/** Columns a connection query adds to the list's select, removed before the row mapper. */
const CURSOR_V = 'page_cursor_v';
const CURSOR_ID = 'page_cursor_id';

/** One sort expression (`coalesce(r.contacted_at, …)` is one): no comma outside parentheses. */
const isKeysetOrder = (q: ListQuery<unknown>): boolean => orderParts(q.orderBy).length === 1;
const flip = (dir: 'asc' | 'desc'): 'asc' | 'desc' => (dir === 'asc' ? 'desc' : 'asc');

/** The bounded count of the whole filtered list, run on first use only (the `count` field), then kept. */
function lazyCount(em: EntityManager, q: ListQuery<unknown>): () => Promise<number | null> {
  let counted: Promise<number | null> | undefined;
  return () => {
    const c = listCount(q, filterOf(q));
    return (counted ??= sqlRows<{ n: string | number }>(em, c.sql, c.params).then((rows) =>
      bounded(Number(rows[0].n)),
    ));
  };
}

const statement = (st: { sql: string; params: unknown[] }): [string, unknown[]] => [st.sql, st.params];
const bounded = (n: number) => (n > COUNT_LIMIT ? null : n);

/** A sort value as a cursor holds it: integers as numbers, everything else as PostgreSQL's text (timestamps keep their precision). */
function cursorValue(v: unknown): string | number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/** `(orderBy, id) > (v, id)` (or `<`) for a keyset cursor; the value is bound as text, which PostgreSQL reads as the column's type. */
function keysetPredicate(q: ListQuery<unknown>, c: Cursor, op: '>' | '<'): { sql: string; params: unknown[] } {
  if (q.orderBy === q.id) return { sql: `${q.id} ${op} ?`, params: [c.id] };
  return { sql: `(${q.orderBy}, ${q.id}) ${op} (?, ?)`, params: [String(c.v), c.id] };
}

function keysetCursor(c: ConnectionRequest['after']): Cursor | undefined {
  return c?.kind === 'keyset' ? c.key : undefined;
}

/** The keyset part of a connection query: filter with the cursors, order, limit (one row beyond the page). */
function keysetSql(
  q: ListQuery<unknown>,
  conn: ConnectionRequest,
  extraWhere: string[] = [],
): { select: string; where: string[]; params: unknown[]; order: string; limit: number } {
  const where = [...q.where, ...extraWhere];
  const params = [...q.params];
  const forward = q.dir === 'asc' ? '>' : '<';
  const backward = q.dir === 'asc' ? '<' : '>';
  const after = keysetCursor(conn.after);
  const before = keysetCursor(conn.before);
  if (after) {
    const p = keysetPredicate(q, after, forward);
    where.push(p.sql);
    params.push(...p.params);
  }
  if (before) {
    const p = keysetPredicate(q, before, backward);
    where.push(p.sql);
    params.push(...p.params);
  }
  const order = orderOf({ ...q, dir: conn.backward ? flip(q.dir) : q.dir });
  return {
    select: `${q.select}, ${q.orderBy} as ${CURSOR_V}, ${q.id} as ${CURSOR_ID}`,
    where,
    params,
    order,
    limit: conn.size + 1,
  };
}

/** Rows of a keyset connection query (one beyond the page at most, in read order) as a page. */
function keysetConnection<T>(
  q: ListQuery<T>,
  conn: ConnectionRequest,
  rows: Record<string, unknown>[],
  count: () => Promise<number | null>,
): Page<T> {
  const beyond = rows.length > conn.size;
  const kept = rows.slice(0, conn.size);
  if (conn.backward) kept.reverse();
  const cursors = kept.map((r) => encodeCursor({ v: cursorValue(r[CURSOR_V]), id: Number(r[CURSOR_ID]) }));
  const nodes = kept.map((r) => {
    const { [CURSOR_V]: _v, [CURSOR_ID]: _id, ...row } = r;
    return q.map(row);
  });
  // Relay spec: the flag of the reading direction from the row beyond; the other one true when a
  // cursor bounds that side (GitLab's keyset connection does the same), else false.
  const hasNextPage = conn.backward ? !!conn.before : beyond || !!conn.before;
  const hasPreviousPage = conn.backward ? beyond || !!conn.after : !!conn.after;
  return connectionPageOf(nodes, conn, PaginationMode.KEYSET, {
    cursorAt: (i) => cursors[i],
    hasNextPage,
    hasPreviousPage,
    count,
  });
}

function connectionPageOf<T>(
  nodes: T[],
  conn: ConnectionRequest,
  pagination: PaginationMode,
  connection: ConnectionInfo,
): Page<T> {
  return {
    nodes,
    total: null,
    page: 1,
    perPage: conn.size,
    totalPages: null,
    hasNextPage: connection.hasNextPage,
    pagination,
    nextCursor: null,
    connection,
  };
}

/** A call with first/after/last/before on one list. */
async function connectionPage<T>(em: EntityManager, q: ListQuery<T>, conn: ConnectionRequest): Promise<Page<T>> {
  const count = lazyCount(em, q);
  if (conn.after?.kind === 'offset' || conn.before?.kind === 'offset' || !isKeysetOrder(q))
    return positionPage(em, q, conn, count);
  const k = keysetSql(q, conn);
  const dir = conn.backward ? flip(q.dir) : q.dir;
  const rows = await cursorRows(
    em,
    keysetStatement({ ...q, select: k.select, where: k.where, params: k.params, dir }, k.limit),
  );
  return keysetConnection(q, conn, rows, count);
}

/**
 * At most `limit` rows of a list after its cursor (in `q.where`), in `q.dir`: the order index walked, or for a
 * selective list the walk within a budget, then its matches sorted (match-first.ts).
 */
function keysetStatement(q: ListQuery<unknown>, limit: number): { sql: string; params: unknown[] } {
  if (isSelective(q)) return matchFirstKeysetSql(q, limit);
  return {
    sql: `select ${q.select} from ${q.from} where ${filterOf(q)} order by ${orderOf(q)} limit ${limit}`,
    params: q.params,
  };
}

/**
 * A cursor that decodes but does not fit the list's sort column (a forged value: text where a
 * timestamp is sorted) fails in PostgreSQL's input conversion: that is the client's 400, not a 500.
 */
async function cursorRows(
  em: EntityManager,
  st: { sql: string; params: unknown[] },
): Promise<Record<string, unknown>[]> {
  try {
    return await sqlRows<Record<string, unknown>>(em, st.sql, st.params);
  } catch (e) {
    throw forgedCursor(e);
  }
}

function forgedCursor(e: unknown): unknown {
  const code = (e as { code?: string }).code;
  // 22xxx data exceptions (invalid text representation, datetime format, out of range), 42883 no such operator.
  return typeof code === 'string' && (code.startsWith('22') || code === '42883') ? ParamError.invalid('cursor') : e;
}

/**
 * A connection cut by position: after/before are position cursors (or none). `last` without `before`
 * needs the list's length: its bounded count (above COUNT_LIMIT rows that is a 400; page by keyset then).
 */
async function positionPage<T>(
  em: EntityManager,
  q: ListQuery<T>,
  conn: ConnectionRequest,
  count: () => Promise<number | null>,
): Promise<Page<T>> {
  if (conn.after?.kind === 'keyset' || conn.before?.kind === 'keyset') throw ParamError.invalid('cursor');
  const start = conn.after?.kind === 'offset' ? conn.after.position + 1 : 0;
  let end = conn.before?.kind === 'offset' ? conn.before.position : undefined;
  if (conn.backward && end === undefined) {
    const n = await count();
    if (n === null)
      throw new ParamError(`last without before is available on lists of at most ${COUNT_LIMIT} items here`);
    end = n;
  }
  const from = conn.backward ? Math.max(start, end! - conn.size) : start;
  const size = end === undefined ? conn.size : Math.max(0, Math.min(conn.size, end - from));
  const filter = filterOf(q);
  const rows = isSelective(q)
    ? matchFirstRows(await sqlRows(em, ...statement(matchFirstPageSql(q, filter, size + 1, from)))).rows
    : await sqlRows<Record<string, unknown>>(em, pageSql(q, filter, size + 1, from), q.params);
  const nodes = rows.slice(0, size).map(q.map);
  const beyond = rows.length > size;
  // Backward, the page ends at `before` (then items follow) or at the list's end.
  const hasNextPage = conn.backward ? !!conn.before : beyond;
  const hasPreviousPage = conn.backward ? from > 0 : start > 0;
  return connectionPageOf(nodes, conn, PaginationMode.OFFSET, {
    cursorAt: (i) => encodeOffsetCursor(from + i),
    hasNextPage,
    hasPreviousPage,
    count,
  });
}

/**
 * first/after/last/before on the same list of many keys (Group.subgroups, Runner.jobs): one lateral
 * keyset query per call for all keys (each key's page from the same cursors). `count` runs the
 * bounded counts of all keys in one statement, on the first page that asks. Position cursors are
 * served forward (first/after) only here.
 */
async function connectionPagesByKey<T>(
  em: EntityManager,
  q: ListQuery<T>,
  key: PageKey,
  keys: readonly number[],
  conn: ConnectionRequest,
): Promise<Map<number, Page<T>>> {
  const ks = `unnest(${intArrayLiteral(keys)}) as page_keys(k)`;
  // Counted only when a page's `count` is read, then for every key at once.
  let counts: Promise<Map<number, number | null>> | undefined;
  const countOf = (k: number) => async () => {
    counts ??= boundedCountsByKey(em, q, key, keys);
    return (await counts).get(k) ?? null;
  };
  const positional = conn.after?.kind === 'offset' || conn.before?.kind === 'offset' || !isKeysetOrder(q);
  if (positional && (conn.backward || conn.before || conn.after?.kind === 'keyset')) {
    throw new ParamError(
      'this nested list takes first and after only with a cursor from a page read with page/perPage',
    );
  }
  const byKey = new Map<number, Record<string, unknown>[]>(keys.map((k) => [Number(k), []]));
  if (positional) {
    const start = conn.after?.kind === 'offset' ? conn.after.position + 1 : 0;
    const filter = `${filterOf(q)} and ${keyFilter(key)}`;
    const rows = await sqlRows<Record<string, unknown>>(
      em,
      `select page_keys.k as page_key, x.* from ${ks} cross join lateral (
        select ${q.select}, row_number() over (order by ${orderOf(q)}) as page_rn from ${q.from} where ${filter}
         order by ${orderOf(q)} limit ${conn.size + 1} offset ${start}) x
        order by page_keys.k, x.page_rn`,
      q.params,
    );
    for (const r of rows) {
      const { page_key: pageKey, page_rn: _rn, ...rest } = r;
      byKey.get(Number(pageKey))?.push(rest);
    }
    return new Map(
      [...byKey].map(([k, list]) => {
        const nodes = list.slice(0, conn.size).map(q.map);
        const info: ConnectionInfo = {
          cursorAt: (i) => encodeOffsetCursor(start + i),
          hasNextPage: list.length > conn.size,
          hasPreviousPage: start > 0,
          count: countOf(k),
        };
        return [k, connectionPageOf(nodes, conn, PaginationMode.OFFSET, info)];
      }),
    );
  }
  const k = keysetSql(q, conn, [keyFilter(key)]);
  const rows = await cursorRows(em, {
    sql: `select page_keys.k as page_key, x.* from ${ks} cross join lateral (
      select ${k.select}, row_number() over (order by ${k.order}) as page_rn from ${q.from} where ${filterOf({ ...q, where: k.where })}
       order by ${k.order} limit ${k.limit}) x
      order by page_keys.k, x.page_rn`,
    params: k.params,
  });
  for (const r of rows) {
    const { page_key: pageKey, page_rn: _rn, ...rest } = r;
    byKey.get(Number(pageKey))?.push(rest);
  }
  return new Map([...byKey].map(([key2, list]) => [key2, keysetConnection(q, conn, list, countOf(key2))]));
}
