import type { SharedCache } from '../db/shared-cache';

/**
 * Names in the shared cache for the credential cache (modules/tokens/authenticate.ts;
 * docs/security.md#credential-cache). Every cached credential carries `AUTH_CACHE_TAG` and its user's tag.
 */
export const AUTH_CACHE_TAG = 'auth';
export const authCacheUserTag = (userId: number) => `auth:user:${userId}`;

/**
 * After a committed write to a user, their tokens, or the settings read with a credential: forget the
 * cached credentials in this instance now (the next request reads the database). The other instances
 * hear it from the tables' triggers at commit (migration Migration20261208090000_auth_cache_notify).
 * `userId` undefined: every user's.
 */
export function forgetCredentials(cache: SharedCache, userId?: number): void {
  cache.forgetHere(userId === undefined ? AUTH_CACHE_TAG : authCacheUserTag(userId));
}
