import type { EntityManager } from '@mikro-orm/postgresql';
import { lightEntity, sqlEntities, sqlRows } from '../../core/db/sql';
import { User } from './user.entity';

// The users table for other modules' statements and lookups (docs/architecture.md, "Tables"): they
// join a row's user through `joinUser` and read the joined alias's columns as a User row.

/** Joins the user that `userId` (a column of the caller's row) names, as `as`. */
export const joinUser = (userId: string, as = 'u') => `join users ${as} on ${as}.id = ${userId}`;

/** Predicate with one parameter (an address): some user has it as primary address (case-insensitive). */
export const primaryEmailInUse = () => 'exists(select 1 from users where lower(email) = lower(?))';

/** A read-only User from a row carrying the users columns (a joined `u.*`): not in the identity map. */
export const userFromRow = (em: EntityManager, row: Record<string, unknown>): User => lightEntity(em, User, row);

/** The user by id, managed by `em` (null when there is none). */
export const findUser = (em: EntityManager, id: number): Promise<User | null> => em.findOne(User, { id });

/** The user named by an id (digits within int4) or a username (case-insensitive), as Sudo names one. */
export async function findUserByIdOrUsername(em: EntityManager, identifier: string): Promise<User | undefined> {
  const byId = /^\d+$/.test(identifier) && Number(identifier) <= 2147483647;
  const [user] = await sqlEntities(
    em,
    User,
    `select u.* from users u where ${byId ? 'u.id = ?' : 'lower(u.username) = lower(?)'}`,
    [byId ? Number(identifier) : identifier],
  );
  return user;
}

/** The username of a user id (undefined when there is none). */
export async function usernameOf(em: EntityManager, id: number): Promise<string | undefined> {
  const [u] = await sqlRows<{ username: string }>(em, 'select username from users where id = ?', [id]);
  return u?.username;
}

/** Whether the instance has any user yet (first start creates root). */
export const anyUser = async (em: EntityManager): Promise<boolean> => (await em.count(User, {})) > 0;

/** A new, unsaved user with these fields (written with `insertWithNamespace`). */
export const newUser = (fields: Partial<User>): User => Object.assign(new User(), fields);
