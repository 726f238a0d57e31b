import type { EntityManager } from '@mikro-orm/postgresql';
import type { Credential } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { digestToken } from '../../core/auth/token';
import { User } from '../users/user.entity';
import { activeTokenSql } from './token-active';

export interface AuthResult {
  user: User | null;
  credential: Credential | null;
  tokenInvalid: boolean;
}

/** Resolves a supplied token to its active user and scopes; unknown, revoked, expired or blocked → tokenInvalid. */
export async function authenticateToken(em: EntityManager, token: string | undefined, now: Date): Promise<AuthResult> {
  if (token === undefined) return { user: null, credential: null, tokenInvalid: false };
  if (token === '' || token.length > 255) return { user: null, credential: null, tokenInvalid: true };
  // One indexed lookup per request: the token's digest joined to its active user.
  const [row] = await sqlRows<Record<string, unknown> & { token_scopes: string[]; token_impersonation: boolean }>(
    em,
    `select u.*, t.scopes as token_scopes, t.impersonation as token_impersonation
       from personal_access_tokens t join users u on u.id = t.user_id
      where t.token_digest = ? and ${activeTokenSql('t')} and u.state = 'active'`,
    [digestToken(token), now.toISOString().slice(0, 10)],
  );
  if (!row) return { user: null, credential: null, tokenInvalid: true };
  const { token_scopes: scopes, token_impersonation: impersonation, ...userRow } = row;
  return { user: em.map(User, userRow as never), credential: { scopes, impersonation }, tokenInvalid: false };
}
