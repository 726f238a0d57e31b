import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import { intArray } from '../access';
import type { CustomAttributeFilter, KeyValue } from './custom-attribute.type';
import { longerThan } from '../../core/validation/char-length';
import { customAttributePolicy } from './custom-attribute.policy';

/**
 * GitLab's custom attributes (lib/api/custom_attributes_endpoints.rb, included by users, groups and
 * projects): one table per owner kind, the same rules for each. Storage only; the lookups of the
 * owner (404 `<Owner> Not Found`) are the owner modules' services (custom-attribute.resolver.ts).
 */
export type CustomAttributeOwner = 'User' | 'Group' | 'Project';

const TABLES: Record<CustomAttributeOwner, { table: string; column: string }> = {
  User: { table: 'user_custom_attributes', column: 'user_id' },
  Group: { table: 'group_custom_attributes', column: 'group_id' },
  Project: { table: 'project_custom_attributes', column: 'project_id' },
};

/** The audit entity of an owner (its events are the owner's: User, Group or Project with its path). */
export type CustomAttributeAudit = Pick<AuditEntry, 'entityType' | 'entityId' | 'entityPath'>;

const attributeAudit = (entity: CustomAttributeAudit, key: string): Omit<AuditEntry, 'action'> => ({
  ...entity,
  targetType: 'CustomAttribute',
  targetId: key,
  targetDetails: key,
});

/** Reads stop at this many attributes of one owner (by key). */
export const CUSTOM_ATTRIBUTES_MAX = 100;

async function list(ctx: RequestCtx, owner: CustomAttributeOwner, id: number): Promise<KeyValue[]> {
  const { table, column } = TABLES[owner];
  return sqlRows<KeyValue>(
    ctx.em,
    `select key, value from ${table} where ${column} = ? order by key limit ${CUSTOM_ATTRIBUTES_MAX}`,
    [id],
  );
}

/** The attributes of many owners (dataloaders of the `customAttributes` fields): one query per batch. */
export async function customAttributesOf(
  ctx: RequestCtx,
  owner: CustomAttributeOwner,
  ids: readonly number[],
): Promise<KeyValue[][]> {
  const { table, column } = TABLES[owner];
  const rows = await sqlRows<{ owner_id: number; key: string; value: string }>(
    ctx.em,
    `select k.id as owner_id, a.key, a.value from unnest(${intArray(ids)}) k(id) cross join lateral (
       select key, value from ${table} where ${column} = k.id order by key limit ${CUSTOM_ATTRIBUTES_MAX}) a`,
  );
  const by = new Map<number, KeyValue[]>(ids.map((id) => [id, []]));
  for (const r of rows) by.get(Number(r.owner_id))?.push({ key: r.key, value: r.value });
  return ids.map((id) => by.get(id) ?? []);
}

async function get(ctx: RequestCtx, owner: CustomAttributeOwner, id: number, key: string): Promise<KeyValue> {
  const { table, column } = TABLES[owner];
  const [row] = await sqlRows<KeyValue>(ctx.em, `select key, value from ${table} where ${column} = ? and key = ?`, [
    id,
    key,
  ]);
  if (!row) throw new NotFoundError('Custom Attribute');
  return row;
}

/**
 * Creates or replaces (GitLab: find_or_initialize_by key, then update value); the audit event (a change
 * of the key from its old value, or an add) is written on the same transaction when `audit` is given.
 */
async function set(
  ctx: RequestCtx,
  owner: CustomAttributeOwner,
  id: number,
  key: string,
  value: string,
  audit?: CustomAttributeAudit,
): Promise<KeyValue> {
  const { table, column } = TABLES[owner];
  if (longerThan(key, 255) || longerThan(value, 255))
    throw new ValidationError({
      [longerThan(key, 255) ? 'key' : 'value']: ['is too long (maximum is 255 characters)'],
    });
  return ctx.em.transactional(async (em) => {
    const [old] = await sqlRows<{ value: string }>(
      em,
      `select value from ${table} where ${column} = ? and key = ? for update`,
      [id, key],
    );
    const [row] = await sqlRows<KeyValue>(
      em,
      `insert into ${table} (${column}, key, value, created_at, updated_at) values (?, ?, ?, now(), now())
       on conflict (${column}, key) do update set value = excluded.value, updated_at = now() returning key, value`,
      [id, key, value],
    );
    if (audit && old?.value !== value) {
      await recordAudit(ctx, em, [
        {
          ...attributeAudit(audit, key),
          action: old ? { change: key, from: old.value, to: value } : { add: 'custom_attribute' },
        },
      ]);
    }
    return row;
  });
}

async function remove(
  ctx: RequestCtx,
  owner: CustomAttributeOwner,
  id: number,
  key: string,
  audit?: CustomAttributeAudit,
): Promise<boolean> {
  const { table, column } = TABLES[owner];
  await ctx.em.transactional(async (em) => {
    const rows = await sqlRows(em, `delete from ${table} where ${column} = ? and key = ? returning id`, [id, key]);
    if (rows.length === 0) throw new NotFoundError('Custom Attribute');
    if (audit) await recordAudit(ctx, em, [{ ...attributeAudit(audit, key), action: { remove: 'custom_attribute' } }]);
  });
  return true;
}

/**
 * The `custom_attributes[key]=value` list filter (GitLab's CustomAttributesFilter): every pair must
 * match; applied for administrators only, ignored (not refused) for others. Appends to `where`/`params`;
 * true when it did (the list is then selective: ListQuery.selective).
 */
export function customAttributeFilter(
  ctx: RequestCtx,
  owner: CustomAttributeOwner,
  idSql: string,
  filters: readonly CustomAttributeFilter[] | undefined,
  where: string[],
  params: unknown[],
): boolean {
  if (!filters?.length || !customAttributePolicy.canSeeCustomAttributes(ctx.user)) return false;
  const { table, column } = TABLES[owner];
  for (const f of filters) {
    where.push(`exists (select 1 from ${table} ca where ca.${column} = ${idSql} and ca.key = ? and ca.value = ?)`);
    params.push(f.key, f.value);
  }
  return true;
}

export const customAttributeStore = { list, get, set, remove };
