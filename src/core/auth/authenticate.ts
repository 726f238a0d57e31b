import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlEntities } from '../db/sql';
import { User } from '../../modules/users/user.entity';
import { digestToken } from './token';

export interface AuthResult {
  user: User | null;
  tokenInvalid: boolean;
}

/** Resolves a supplied token to its active user; unknown, revoked, expired or blocked → tokenInvalid. */
export async function authenticateToken(em: EntityManager, token: string | undefined, now: Date): Promise<AuthResult> {
  if (token === undefined) return { user: null, tokenInvalid: false };
  if (token === '' || token.length > 255) return { user: null, tokenInvalid: true };
  // One indexed lookup per request: the token's digest joined to its active user.
  const [user] = await sqlEntities(
    em,
    User,
    `select u.* from personal_access_tokens t join users u on u.id = t.user_id
      where t.token_digest = ? and not t.revoked and (t.expires_at is null or t.expires_at > ?::date) and u.state = 'active'`,
    [digestToken(token), now.toISOString().slice(0, 10)],
  );
  return user ? { user, tokenInvalid: false } : { user: null, tokenInvalid: true };
}
