import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import { sqlRows } from '../../core/db/sql';
import type { SystemEvent } from '../../core/events/system-events';

/** The users' system hook payloads (GitLab 10.3's SystemHooksService for a User). */

type UserRow = {
  id: number;
  name: string;
  username: string;
  email: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** user_create, user_destroy, user_rename (with old_username). */
export async function userEvent(
  em: EntityManager,
  userId: number,
  event: 'create' | 'destroy' | 'rename',
  oldUsername?: string,
): Promise<SystemEvent[]> {
  const [u] = await sqlRows<UserRow>(
    em,
    'select id, name, username, email, created_at, updated_at from users where id = ?',
    [userId],
  );
  if (!u) return [];
  return [
    {
      name: `user_${event}`,
      createdAt: pgTime(u.created_at),
      updatedAt: pgTime(u.updated_at),
      data: {
        name: u.name,
        email: u.email,
        user_id: u.id,
        username: u.username,
        ...(oldUsername !== undefined ? { old_username: oldUsername } : {}),
      },
    },
  ];
}
