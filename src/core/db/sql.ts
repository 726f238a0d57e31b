import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceKind, SCALAR_TYPES, type EntityClass, type EntityData, type EntityProperty } from '@mikro-orm/core';

/**
 * Raw SQL rows (knex-style `?` placeholders). Inside `em.transactional` the statement runs in that
 * transaction (row locks, reads of its own writes); elsewhere on a pooled connection.
 */
export async function sqlRows<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await em.getConnection().execute(sql, params, 'all', em.getTransactionContext())) as T[];
}

/** Raw SQL selecting whole rows of one table (`alias.*`), mapped to managed entities. */
export async function sqlEntities<T extends object>(em: EntityManager, entity: EntityClass<T>, sql: string, params: unknown[] = []): Promise<T[]> {
  const rows = await sqlRows<Record<string, unknown>>(em, sql, params);
  return rows.map((row) => em.map(entity, row as never));
}

/**
 * A read-only row of a list as an instance of its entity class, hydrated exactly as `em.map` does
 * (column names, custom types, scalar fixes) but neither registered in the unit of work nor looked
 * up in the identity map (issue 8: `em.map` per listed row was the top MikroORM cost). Being an
 * instance of the class, type-graphql passes it to `@Root()` as is (a plain object would be copied
 * into a new entity per field resolver call). Never flush changes made to it.
 */
export function lightEntity<T extends object>(em: EntityManager, entity: EntityClass<T>, row: Record<string, unknown>): T {
  const meta = em.getMetadata().get<T>(entity.name);
  const data = em.getDriver().mapResult(row as never, meta) as Record<string, unknown>;
  for (const k of Object.keys(data)) {
    const prop = (meta.properties as Record<string, EntityProperty<T> | undefined>)[k];
    if (prop && prop.kind === ReferenceKind.SCALAR && SCALAR_TYPES.includes(prop.runtimeType) && !prop.customType && (prop.setter || !prop.getter)) {
      data[k] = em.getValidator().validateProperty(prop, data[k], data);
    }
  }
  return em.getEntityFactory().create(entity.name, data as EntityData<T>, { merge: false, refresh: true, convertCustomTypes: true }) as T;
}

/** Escapes LIKE metacharacters so that `%`, `_` and `\` in a search term are literal text. */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
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
