import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { NotFoundError, ValidationError } from '../../core/errors/domain-errors';
import type { KeyValue } from './group.loaders';
import { groupService } from './group.service';

/** GitLab's custom attributes API for groups (administrators only). */
async function list(ctx: RequestCtx, groupId: string): Promise<KeyValue[]> {
  const group = await groupService.findVisible(ctx, groupId);
  return ctx.loaders.groupCustomAttributes.load(group.id);
}

async function get(ctx: RequestCtx, groupId: string, key: string): Promise<KeyValue> {
  const attr = (await list(ctx, groupId)).find((a) => a.key === key);
  if (!attr) throw new NotFoundError('Custom Attribute');
  return attr;
}

async function set(ctx: RequestCtx, groupId: string, key: string, value: string): Promise<KeyValue> {
  const group = await groupService.findVisible(ctx, groupId);
  if (key.length > 255 || value.length > 255) throw new ValidationError({ [key.length > 255 ? 'key' : 'value']: ['is too long (maximum is 255 characters)'] });
  const [row] = await sqlRows<KeyValue>(
    ctx.em,
    `insert into group_custom_attributes (group_id, key, value, created_at, updated_at) values (?, ?, ?, now(), now())
     on conflict (group_id, key) do update set value = excluded.value, updated_at = now() returning key, value`,
    [group.id, key, value],
  );
  return row;
}

async function remove(ctx: RequestCtx, groupId: string, key: string): Promise<boolean> {
  const group = await groupService.findVisible(ctx, groupId);
  const rows = await sqlRows(ctx.em, 'delete from group_custom_attributes where group_id = ? and key = ? returning id', [group.id, key]);
  if (rows.length === 0) throw new NotFoundError('Custom Attribute');
  return true;
}

export const groupCustomAttributeService = { list, get, set, remove };
