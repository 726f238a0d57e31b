import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlRows, sqlRowsBatch } from '../db/sql';
import { decodeCursor, encodeCursor } from './cursor';
import { makePage, normalizePage, type Page } from './page';

/**
 * One list query (docs/gitlab-compatibility.md, "Pagination"): a FROM, filters, a sort column and the row mapper. The
 * builder adds the stable tie-breaker (`<alias>.id` in the same direction), and gives either an
 * offset page (one count + one page query, whatever the page size) or a keyset page (no count).
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
  map: (row: Record<string, unknown>) => T;
}

export interface PageInput {
  page?: number | null;
  perPage?: number | null;
}

const filterOf = (q: ListQuery<unknown>) => (q.where.length ? q.where.join(' and ') : 'true');
const orderOf = (q: ListQuery<unknown>) => (q.orderBy === q.id ? `${q.id} ${q.dir}` : `${q.orderBy} ${q.dir}, ${q.id} ${q.dir}`);

/** Offset pagination: count + page in SQL, ordered by the sort column then id. */
export async function offsetPage<T>(em: EntityManager, q: ListQuery<T>, args: PageInput): Promise<Page<T>> {
  const req = normalizePage(args);
  const filter = filterOf(q);
  // Count and page in one round trip (two statements).
  const [counted, rows] = await sqlRowsBatch(em, [
    { sql: `select count(*) as n from ${q.from} where ${filter}`, params: q.params },
    { sql: `select ${q.select} from ${q.from} where ${filter} order by ${orderOf(q)} limit ${req.perPage} offset ${req.offset}`, params: q.params },
  ]);
  return makePage(rows.map(q.map), Number(counted[0].n), req);
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
  const nextCursor = rows.length > req.perPage && last ? encodeCursor({ v: valueOf(last), id: last.id }) : null;
  return { nodes, total: null, page: 1, perPage: req.perPage, totalPages: null, nextCursor };
}
