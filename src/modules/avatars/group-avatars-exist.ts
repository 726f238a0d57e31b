import type { EntityManager } from '@mikro-orm/postgresql';
import type { SharedCache } from '../../core/db/shared-cache';
import { sqlRows } from '../../core/db/sql';

/**
 * Whether any group has an avatar, cached per instance in the shared cache (docs/scale-out.md#caches).
 * Group lists and group reads by id or path read the avatar file names in their own statement (a probe
 * of the avatars table per row); while no group has one there is nothing to probe for, and they leave it out.
 * A statement that adds, changes or removes a group's avatar notifies this key at commit (the table's
 * triggers, Migration20261231090000_group_avatars_cache_notify), from this service, an older release
 * running beside it or an SQL console alike; a group avatar written through the service also forgets it
 * here at once (docs/scale-out.md#caches).
 */
export const GROUP_AVATARS_EXIST_KEY = 'avatars:group-exist';

/** The cached answer without a promise when loaded; else one `exists` probe of the group column's unique index. */
export function groupAvatarsExist(cache: SharedCache, em: EntityManager): boolean | Promise<boolean> {
  const known = cache.peek<boolean>(GROUP_AVATARS_EXIST_KEY);
  if (known !== undefined) return known;
  return cache.get(GROUP_AVATARS_EXIST_KEY, async () => {
    const [row] = await sqlRows<{ any: boolean }>(
      em,
      'select exists (select 1 from avatars where group_id is not null) as any',
    );
    return row.any;
  });
}
