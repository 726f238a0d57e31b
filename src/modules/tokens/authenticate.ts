import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../core/context/request-ctx';
import type { DomainError } from '../../core/errors/domain-errors';
import { UNIQUE_IPS_COLUMNS, UNIQUE_IPS_JOIN, uniqueIpsRefusal, type UniqueIpsLimit } from '../application-settings';
import { sqlRows } from '../../core/db/sql';
import type { SharedCache } from '../../core/db/shared-cache';
import { AUTH_CACHE_TAG, authCacheUserTag } from '../../core/auth/credential-cache';
import { digestToken } from '../../core/auth/token';
import { joinUser, noteActivity, userFromRow, type User } from '../users';
import { activeTokenSql } from './token-active';
import { noteTokenUse } from './token-use';

export interface AuthResult {
  user: User | null;
  credential: Credential | null;
  tokenInvalid: boolean;
  /** The request is refused although the token is valid (unique-IPs limit, spec 4.18). */
  refusal?: DomainError | null;
}

/** No token at all: an anonymous caller (callers without a token may skip the call: nothing to look up). */
export const ANONYMOUS: AuthResult = Object.freeze({ user: null, credential: null, tokenInvalid: false });

type AuthRow = Record<string, unknown> &
  UniqueIpsLimit & {
    token_scopes: string[];
    token_impersonation: boolean;
    token_id: number;
    token_last_used_at: Date | string | null;
  };

/** A backstop only: every write that matters invalidates at once (docs/security.md#credential-cache). */
export const AUTH_CACHE_TTL_MS = 60_000;

/**
 * The token's row and its active user, from the shared cache: a request with a token the instance saw
 * before costs no statement. Keyed by the digest and today's date (a token's expiry is a day, so the
 * answer holds for the day); only found credentials are kept, so an unknown token always asks the
 * database. Kept entries are forgotten when their user's row or tokens change: triggers on users,
 * personal_access_tokens and application_settings notify every instance at commit (migration
 * Migration20261208090000_auth_cache_notify), whoever wrote; the service's own writes also forget them
 * in their instance right after commit (`forgetCredentials`).
 */
async function credentialRow(
  em: EntityManager,
  cache: SharedCache | null,
  digest: string,
  today: string,
): Promise<AuthRow | undefined> {
  const load = async () => {
    const [row] = await sqlRows<AuthRow>(
      em,
      `select u.*, t.id as token_id, t.last_used_at as token_last_used_at, t.scopes as token_scopes, t.impersonation as token_impersonation, ${UNIQUE_IPS_COLUMNS}
         from personal_access_tokens t ${joinUser('t.user_id')} ${UNIQUE_IPS_JOIN}
        where t.token_digest = ? and ${activeTokenSql('t')} and u.state = 'active'`,
      [digest, today],
    );
    if (!row) throw new NoCredential();
    // Shared by every request that presents the token: read-only, and without the password digest
    // (nothing reads it from the caller; it need not sit in the cache).
    const { password_digest: _digest, ...kept } = row;
    Object.freeze(kept.token_scopes);
    return Object.freeze(kept) as AuthRow;
  };
  if (!cache) return load().catch(noCredential);
  return cache
    .get(`auth:token:${digest}:${today}`, load, {
      tags: (row) => [AUTH_CACHE_TAG, authCacheUserTag(Number(row.id))],
      ttlMs: AUTH_CACHE_TTL_MS,
    })
    .catch(noCredential);
}

/** A miss is thrown, not returned, so the cache keeps only found credentials. */
class NoCredential extends Error {}
function noCredential(e: unknown): undefined {
  if (e instanceof NoCredential) return undefined;
  throw e;
}

/**
 * Resolves a supplied token to its active user and scopes; unknown, revoked, expired or blocked →
 * tokenInvalid. `cache`: the app's shared cache (null: always read the database).
 */
export async function authenticateToken(
  em: EntityManager,
  cache: SharedCache | null,
  token: string | undefined,
  now: Date,
  ip?: string,
): Promise<AuthResult> {
  if (token === undefined) return ANONYMOUS;
  if (token === '' || token.length > 255) return { user: null, credential: null, tokenInvalid: true };
  const row = await credentialRow(em, cache, digestToken(token), now.toISOString().slice(0, 10));
  if (!row) return { user: null, credential: null, tokenInvalid: true };
  const { token_scopes: scopes, token_impersonation: impersonation, token_id, ips_limit, ips_window } = row;
  const refusal = await uniqueIpsRefusal(em, { ips_limit, ips_window }, Number(row.id), ip, now);
  // A read-only record of the caller (not in the identity map), mapped per request from the (shared,
  // never mutated) row: services that change a user load it through the EntityManager (mapping
  // a managed entity is most of MikroORM's per-request cost). The row mapper reads the users
  // columns only, so the token columns need no copy of the row without them.
  const user = userFromRow(em, row);
  if (!refusal) {
    noteActivity(em, user, now);
    noteTokenUse(em, Number(token_id), row.token_last_used_at, now);
  }
  return { user, credential: { scopes, impersonation, tokenId: Number(token_id) }, tokenInvalid: false, refusal };
}
