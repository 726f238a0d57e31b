import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceKind, Type, type EntityClass, type EntityProperty } from '@mikro-orm/core';
import { pgTime } from './pg-time';

type PgResult = { rows: Record<string, unknown>[] };
interface PgConnection {
  /** One statement gives one result; several (separated by `;`) give an array of results. */
  query(sql: string): Promise<PgResult | PgResult[]>;
}
interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(c: PgConnection): Promise<unknown>;
  emit(event: 'query', data: { sql: string }): void;
}

/** Inside a transaction (or with MikroORM's debug log on) statements go through MikroORM itself. */
function throughMikroOrm(em: EntityManager): boolean {
  return !!em.getTransactionContext() || !!em.config.get('debug');
}

/**
 * Read statements on a pooled connection in one round trip, formatted by MikroORM (its literal
 * escaping) and with its error conversion, but without its knex query-builder round. The
 * knex `query` event still fires once per statement (statement counts, logging).
 */
async function pooledRows(
  em: EntityManager,
  statements: { sql: string; params?: unknown[] }[],
): Promise<Record<string, unknown>[][]> {
  const platform = em.getPlatform();
  const formatted = statements.map((st) => platform.formatQuery(st.sql, st.params ?? []));
  const client = em.getConnection().getKnex().client as unknown as KnexClient;
  let conn: PgConnection | undefined;
  try {
    conn = await client.acquireConnection();
    for (const sql of formatted) client.emit('query', { sql });
    const result = await conn.query(formatted.join(';\n'));
    return (Array.isArray(result) ? result : [result]).map((r) => r.rows);
  } catch (e) {
    throw platform.getExceptionConverter().convertException(e as Error);
  } finally {
    if (conn) void client.releaseConnection(conn);
  }
}

/**
 * Raw SQL rows (knex-style `?` placeholders). Inside `em.transactional` the statement runs in that
 * transaction (row locks, reads of its own writes) through MikroORM; elsewhere on a pooled connection
 * (`pooledRows`).
 */
export async function sqlRows<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (throughMikroOrm(em))
    return (await em.getConnection().execute(sql, params, 'all', em.getTransactionContext())) as T[];
  return (await pooledRows(em, [{ sql, params }]))[0] as T[];
}

/**
 * Several read statements in one round trip (PostgreSQL's simple query protocol takes them as one
 * text): e.g. a list's count and page (each statement costs a network write). Inside a
 * transaction they run one after the other.
 */
export async function sqlRowsBatch(
  em: EntityManager,
  statements: { sql: string; params?: unknown[] }[],
): Promise<Record<string, unknown>[][]> {
  if (!throughMikroOrm(em)) return pooledRows(em, statements);
  const out: Record<string, unknown>[][] = [];
  for (const st of statements) out.push(await sqlRows(em, st.sql, st.params ?? []));
  return out;
}

/**
 * Deletes the rows of `table` matching `where` (knex `?` placeholders, `params`), at most `batch` per
 * statement (each a short transaction of its own, no long lock), until none is left or `stopped()`
 * says so between two statements; returns how many went. Rows are picked by ctid: a row a concurrent
 * write changes between the pick and the delete has a new ctid, so it is left for a later round and
 * never deleted on the strength of its old values. Several instances doing it at once only repeat work.
 */
export async function deleteInBatches(
  em: EntityManager,
  table: string,
  where: string,
  params: unknown[] = [],
  opts: { batch?: number; stopped?: () => boolean } = {},
): Promise<number> {
  const batch = opts.batch ?? 1000;
  let total = 0;
  for (;;) {
    const [row] = await sqlRows<{ n: number }>(
      em,
      `with gone as (delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${batch})) returning 1)
       select count(*)::int as n from gone`,
      params,
    );
    total += row.n;
    if (row.n < batch || opts.stopped?.()) return total;
  }
}

/** Raw SQL selecting whole rows of one table (`alias.*`), mapped to managed entities. */
export async function sqlEntities<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const rows = await sqlRows<Record<string, unknown>>(em, sql, params);
  return rows.map((row) => em.map(entity, row as never));
}

/** Date columns of a light row: a Date as given, PostgreSQL text parsed (pg-time.ts). */
function toDate(v: unknown): unknown {
  return typeof v === 'string' ? pgTime(v) : v;
}

type RowMapper = (row: Record<string, unknown>) => object;
const rowMappers = new WeakMap<Function, RowMapper>();

/**
 * The mapper of one entity class, generated once from MikroORM's metadata: column → property, with
 * the property's custom type (bigint, arrays, dates given as text) converted as MikroORM hydrates it.
 */
function rowMapper(em: EntityManager, entity: EntityClass<object>): RowMapper {
  const meta = em.getMetadata().get(entity.name);
  const platform = em.getPlatform();
  const converters: ((v: unknown) => unknown)[] = [];
  const lines: string[] = [];
  // MikroORM puts setters on the entity prototype that give each instance change-tracking accessors
  // on first assignment; writable data properties on an intermediate prototype shadow them, so the
  // assignments below create plain own properties (and instanceof the entity class still holds).
  const proto = Object.create(entity.prototype) as object;
  for (const prop of meta.props as EntityProperty[]) {
    if (prop.kind !== ReferenceKind.SCALAR || prop.persist === false || prop.fieldNames?.length !== 1) continue;
    Object.defineProperty(proto, prop.name, { value: undefined, writable: true, configurable: true });
    const from = `row[${JSON.stringify(prop.fieldNames[0])}]`;
    const to = `o[${JSON.stringify(prop.name)}]`;
    const type = prop.customType;
    const custom = type && type.convertToJSValue !== Type.prototype.convertToJSValue ? type : undefined;
    const convert =
      prop.runtimeType === 'Date'
        ? toDate
        : custom
          ? (v: unknown) => custom.convertToJSValue(v, platform)
          : prop.runtimeType === 'number'
            ? (v: unknown) => (typeof v === 'string' ? Number(v) : v)
            : prop.runtimeType === 'boolean'
              ? (v: unknown) => !!v
              : undefined;
    if (!convert) {
      lines.push(`v = ${from}; if (v !== undefined) ${to} = v;`);
      continue;
    }
    converters.push(convert);
    lines.push(`v = ${from}; if (v !== undefined) ${to} = v === null ? null : c[${converters.length - 1}](v);`);
  }
  const build = new Function(
    'proto',
    'c',
    `return function (row) { const o = Object.create(proto); let v; ${lines.join(' ')} return o; };`,
  );
  return build(proto, converters) as RowMapper;
}

/**
 * A read-only row of a list as an instance of its entity class: the columns converted as MikroORM
 * hydrates them, set as plain properties. Neither registered in the unit of work, nor looked up in
 * the identity map, nor given MikroORM's per-instance change-tracking accessors (those are
 * the top cost of listed rows). Being an instance of the class, type-graphql passes it to `@Root()`
 * as is. Never flush changes made to it.
 */
export function lightEntity<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  row: Record<string, unknown>,
): T {
  let map = rowMappers.get(entity);
  if (!map) {
    map = rowMapper(em, entity as EntityClass<object>);
    rowMappers.set(entity, map);
  }
  return map(row) as T;
}

/** Escapes LIKE metacharacters so that `%`, `_` and `\` in a search term are literal text. */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `term` as a substring (ILIKE, GitLab's `fuzzy_search`) of any of `columns`, served by ONE trigram GIN
 * index on `combined` (the columns joined with spaces, exactly as the index expression is written).
 * The combined condition is implied by the OR (a column that holds the term makes the joined text hold
 * it) and is what the index answers; the OR is rechecked on the rows it returns, so a match across two
 * columns' boundary never counts. One GIN scan instead of one per column: a term whose trigrams are in
 * most rows (docs/growth.md "Search") pays the posting-list intersections once.
 * A term without a space cannot span a boundary (each is a space), so for it the combined condition
 * alone is exact and the per-column recheck, a cost on every counted row, is left out.
 * The columns must be NOT NULL (a null would make the joined text null).
 */
export function anyColumnContains(
  combined: string,
  columns: readonly string[],
  term: string,
): { sql: string; params: string[] } {
  const like = `%${likeEscape(term)}%`;
  if (!term.includes(' ')) return { sql: `${combined} ilike ?`, params: [like] };
  return {
    sql: `(${combined} ilike ? and (${columns.map((c) => `${c} ilike ?`).join(' or ')}))`,
    params: [like, ...columns.map(() => like)],
  };
}

export function isUniqueViolation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: string }).code === '23505';
}

/**
 * Which field a unique-index violation is about: the index name says it (`*_name_uniq` → name,
 * `*_path_*` → path). Lets a lost race end as the same validation error as a detected duplicate.
 */
export function takenField(err: unknown): 'name' | 'path' | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const constraint = String((err as { constraint?: string }).constraint ?? (err as Error).message);
  return constraint.includes('name_uniq') ? 'name' : 'path';
}

/**
 * Rows of one entity by primary key, as light read-only instances (lightEntity): the batch query
 * behind read-side DataLoaders. Order is not guaranteed; key them by id.
 */
export async function lightEntitiesById<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  ids: readonly number[],
): Promise<T[]> {
  if (ids.length === 0) return [];
  const meta = em.getMetadata().get(entity.name);
  const pk = meta.getPrimaryProps()[0].fieldNames[0];
  const list = ids.map((id) => Math.trunc(Number(id))).filter(Number.isSafeInteger);
  const rows = await sqlRows<Record<string, unknown>>(
    em,
    `select * from "${meta.tableName}" where "${pk}" = any(?::bigint[])`,
    [`{${list.join(',')}}`],
  );
  return rows.map((r) => lightEntity(em, entity, r));
}

/**
 * A PostgreSQL array literal for one `?` (`any(?::text[])`, `unnest(?::int[])`): knex-style bindings
 * expand a JavaScript array into a list of placeholders, so arrays are passed as one text value
 * (null elements as SQL NULL).
 */
export function pgArray(values: readonly (string | number | null)[]): string {
  const element = (v: string | number | null) =>
    v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return `{${values.map(element).join(',')}}`;
}
