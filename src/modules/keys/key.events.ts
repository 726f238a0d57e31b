import type { EntityManager } from '@mikro-orm/postgresql';
import { pgTime } from '../../core/db/pg-time';
import { sqlRows } from '../../core/db/sql';
import type { SystemEvent } from '../../core/events/system-events';
import type { User } from '../users';
import type { SshKey } from './key.entity';
import { userSshKeyEvents } from '../../core/events/system-event-catalogue';

/** GitLab 10.3's SystemHooksService for a Key: key_create / key_destroy with key, id and username. */
export const keyEvent = (user: Pick<User, 'username'>, k: SshKey, event: 'create' | 'destroy'): SystemEvent[] => [
  {
    name: `key_${event}`,
    createdAt: k.createdAt,
    updatedAt: k.updatedAt,
    data: { key: k.key, id: k.id, username: user.username },
  },
];

/** key_destroy for each of a user's SSH keys (GitLab 10.3 destroys them with the user, before user_destroy). */
async function userKeyDestroyEvents(
  em: EntityManager,
  user: { id: number; username: string },
  _event: 'destroy',
): Promise<SystemEvent[]> {
  const keys = await sqlRows<{ id: number; key: string; created_at: Date | string; updated_at: Date | string }>(
    em,
    'select k.id, k.key, k.created_at, k.updated_at from keys k where k.user_id = ? order by k.id',
    [user.id],
  );
  return keys.map((k) => ({
    name: 'key_destroy',
    createdAt: pgTime(k.created_at),
    updatedAt: pgTime(k.updated_at),
    data: { key: k.key, id: k.id, username: user.username },
  }));
}

userSshKeyEvents.provide(userKeyDestroyEvents);
