import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityClass } from '@mikro-orm/core';

/** Raw SQL rows (knex-style `?` placeholders). */
export async function sqlRows<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await em.getConnection().execute(sql, params, 'all')) as T[];
}

/** Raw SQL selecting whole rows of one table (`alias.*`), mapped to managed entities. */
export async function sqlEntities<T extends object>(em: EntityManager, entity: EntityClass<T>, sql: string, params: unknown[] = []): Promise<T[]> {
  const rows = await sqlRows<Record<string, unknown>>(em, sql, params);
  return rows.map((row) => em.map(entity, row as never));
}

/** Escapes LIKE metacharacters so that `%`, `_` and `\` in a search term are literal text. */
export function likeEscape(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function isUniqueViolation(err: unknown): boolean {
  return !!err && typeof err === 'object' && (err as { code?: string }).code === '23505';
}
